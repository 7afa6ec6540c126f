import { get, getAll, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { CONNECTION_TOKENS } from './connections-tokens.js';
import { GUARD_TOKENS } from './guard-tokens.js';
import { USAGE_TOKENS } from './usage-tokens.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { StoredGrant } from '../../domain/guard/grant.js';
import { TracedApprovalBook } from '../../application/guard/traced-approval-book.js';
import { GrantBook } from '../../application/guard/grant-book.js';
import { ActAsSeam } from '../../application/guard/act-as-seam.js';
import { HostAccess } from '../../application/guard/host-access.js';
import { ToolRunner } from '../../application/guard/tool-runner.js';
import { ExecuteApproved } from '../../application/guard/execute-approved.js';
import { EXECUTION_LEASE_MS } from '../../domain/guard/approval.js';
import { TracedGuardCall } from '../../application/guard/traced-guard-call.js';
import { DecisionTrace } from '../../application/guard/decision-trace.js';
import { PropagatingHostApi } from '../../adapters/telemetry/propagating-host-api.js';
import { DecideApproval, DecisionEffects } from '../../application/guard/decide-approval.js';
import { DecideApprovals } from '../../application/guard/decide-approvals.js';
import { GetApproval } from '../../application/guard/get-approval.js';
import { ListApprovals } from '../../application/guard/list-approvals.js';
import { ListGrants } from '../../application/guard/list-grants.js';
import { RevokeGrant } from '../../application/guard/revoke-grant.js';
import { EgressPreview } from '../../application/guard/egress-preview.js';
import { GuardedEgress } from '../../adapters/shared/egress/guarded-egress.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import { BaseUrlHostApi } from '../../adapters/host/base-url-host-api.js';
import { NoHostApi } from '../../adapters/host/no-host-api.js';
import { guardRoutes } from '../../adapters/http/routes/guard-routes.js';

/** The guard: tools, risk, grants, policy, approvals and the act-as seam, with their routes. */
export const guardModule = porterModule((bind) => {
  bind(GUARD_TOKENS.ExecutionSettings).toConstantValue({ leaseMs: EXECUTION_LEASE_MS });
  bind.singleton(GUARD_TOKENS.ToolRegistry, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    const porterTools = getAll(ctx, TOKENS.PorterTools).flat();
    return new StaticToolRegistry([...porterTools, ...config.tools]);
  });
  bind.singleton(
    GUARD_TOKENS.ApprovalBook,
    (ctx) => new TracedApprovalBook(recordsOf<ApprovalPrimitives>(ctx, 'approvals'), get(ctx, TOKENS.Telemetry)),
  );
  bind.singleton(GUARD_TOKENS.GrantBook, (ctx) => new GrantBook(recordsOf<StoredGrant>(ctx, 'grants')));
  bind.singleton(
    GUARD_TOKENS.ActAsSeam,
    (ctx) => new ActAsSeam(get(ctx, TOKENS.Config).actAs ?? null, get(ctx, TOKENS.AuditTrail), get(ctx, TOKENS.Clock)),
  );
  bind.singleton(GUARD_TOKENS.HostAccess, (ctx) => {
    const baseUrl = get(ctx, TOKENS.Config).baseUrl;
    return new HostAccess(
      baseUrl ? new PropagatingHostApi(new BaseUrlHostApi(baseUrl), get(ctx, TOKENS.Telemetry)) : new NoHostApi(),
      get(ctx, GUARD_TOKENS.ActAsSeam),
      get(ctx, TOKENS.AuditTrail),
    );
  });
  // Strict everywhere, development included: no address class is allowed besides public ones.
  bind.singleton(GUARD_TOKENS.Egress, () => new GuardedEgress());
  bind.singleton(
    GUARD_TOKENS.ToolRunner,
    (ctx) => new ToolRunner(get(ctx, GUARD_TOKENS.HostAccess), get(ctx, CONNECTION_TOKENS.ConnectionGate), get(ctx, GUARD_TOKENS.Egress)),
  );
  bind.singleton(
    GUARD_TOKENS.ExecuteApproved,
    (ctx) =>
      new ExecuteApproved({
        approvals: get(ctx, GUARD_TOKENS.ApprovalBook),
        tools: get(ctx, GUARD_TOKENS.ToolRegistry),
        runner: get(ctx, GUARD_TOKENS.ToolRunner),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
        logger: get(ctx, TOKENS.Logger),
        telemetry: get(ctx, TOKENS.Telemetry),
        settings: get(ctx, GUARD_TOKENS.ExecutionSettings),
      }),
  );
  bind.singleton(GUARD_TOKENS.GuardCall, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    return new TracedGuardCall(get(ctx, TOKENS.Telemetry), {
      tools: get(ctx, GUARD_TOKENS.ToolRegistry),
      approvals: get(ctx, GUARD_TOKENS.ApprovalBook),
      grants: get(ctx, GUARD_TOKENS.GrantBook),
      runner: get(ctx, GUARD_TOKENS.ToolRunner),
      executeApproved: get(ctx, GUARD_TOKENS.ExecuteApproved),
      settings: { policy: config.policy, approvalTtlMs: config.approvalTtlSeconds * 1000 },
      ids: get(ctx, TOKENS.Ids),
      clock: get(ctx, TOKENS.Clock),
      audit: get(ctx, TOKENS.AuditTrail),
      egressPreview: new EgressPreview(get(ctx, GUARD_TOKENS.Egress)),
      meter: get(ctx, USAGE_TOKENS.UsageMeter),
    });
  });
  bind.singleton(GUARD_TOKENS.GuardUseCases, (ctx) => {
    const approvals = get(ctx, GUARD_TOKENS.ApprovalBook);
    const grants = get(ctx, GUARD_TOKENS.GrantBook);
    const clock = get(ctx, TOKENS.Clock);
    const effects = new DecisionEffects(grants, getAll(ctx, TOKENS.ApprovalHooks), get(ctx, TOKENS.Ids), get(ctx, TOKENS.AuditTrail));
    return {
      listApprovals: new ListApprovals(approvals, clock),
      getApproval: new GetApproval(approvals, clock),
      decideApproval: new DecideApproval(approvals, effects, clock),
      decideApprovals: new DecideApprovals(approvals, effects, clock, get(ctx, TOKENS.Ids)),
      listGrants: new ListGrants(grants),
      revokeGrant: new RevokeGrant(grants, clock, get(ctx, TOKENS.AuditTrail)),
    };
  });
  // Each decision is recorded in the trace of the call it answers.
  bind(TOKENS.ApprovalHooks).toDynamicValue((ctx) => new DecisionTrace(get(ctx, TOKENS.Telemetry)));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => guardRoutes(get(ctx, GUARD_TOKENS.GuardUseCases)));
  bind(TOKENS.StatusBlocks).toDynamicValue((ctx) => ({
    guard: true,
    actions: get(ctx, GUARD_TOKENS.ToolRegistry).list().length > 0,
  }));
});
