import { get, getAll, porterModule, recordsOf, token, TOKENS } from '../tokens.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { StoredGrant } from '../../domain/guard/grant.js';
import { TracedApprovalBook } from '../../application/guard/traced-approval-book.js';
import { GrantBook } from '../../application/guard/grant-book.js';
import { ActAsSeam } from '../../application/guard/act-as-seam.js';
import { HostAccess } from '../../application/guard/host-access.js';
import { ToolRunner } from '../../application/guard/tool-runner.js';
import { ExecuteApproved, type ExecutionSettings } from '../../application/guard/execute-approved.js';
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

/** The guard's own settings, which a test may replace (a short execution lease, to play a crash). */
export const GUARD_TOKENS = {
  ExecutionSettings: token<ExecutionSettings>('ExecutionSettings'),
};

/** The guard: tools, risk, grants, policy, approvals and the act-as seam, with their routes. */
export const guardModule = porterModule((bind) => {
  bind(GUARD_TOKENS.ExecutionSettings).toConstantValue({ leaseMs: EXECUTION_LEASE_MS });
  bind.singleton(TOKENS.ToolRegistry, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    const porterTools = getAll(ctx, TOKENS.PorterTools).flat();
    return new StaticToolRegistry([...porterTools, ...config.tools]);
  });
  bind.singleton(
    TOKENS.ApprovalBook,
    (ctx) => new TracedApprovalBook(recordsOf<ApprovalPrimitives>(ctx, 'approvals'), get(ctx, TOKENS.Telemetry)),
  );
  bind.singleton(TOKENS.GrantBook, (ctx) => new GrantBook(recordsOf<StoredGrant>(ctx, 'grants')));
  bind.singleton(
    TOKENS.ActAsSeam,
    (ctx) => new ActAsSeam(get(ctx, TOKENS.Config).actAs ?? null, get(ctx, TOKENS.AuditTrail), get(ctx, TOKENS.Clock)),
  );
  bind.singleton(TOKENS.HostAccess, (ctx) => {
    const baseUrl = get(ctx, TOKENS.Config).baseUrl;
    return new HostAccess(
      baseUrl ? new PropagatingHostApi(new BaseUrlHostApi(baseUrl), get(ctx, TOKENS.Telemetry)) : new NoHostApi(),
      get(ctx, TOKENS.ActAsSeam),
      get(ctx, TOKENS.AuditTrail),
    );
  });
  // Strict everywhere, development included: no address class is allowed besides public ones.
  bind.singleton(TOKENS.Egress, () => new GuardedEgress());
  bind.singleton(
    TOKENS.ToolRunner,
    (ctx) => new ToolRunner(get(ctx, TOKENS.HostAccess), get(ctx, TOKENS.ConnectionGate), get(ctx, TOKENS.Egress)),
  );
  bind.singleton(
    TOKENS.ExecuteApproved,
    (ctx) =>
      new ExecuteApproved({
        approvals: get(ctx, TOKENS.ApprovalBook),
        tools: get(ctx, TOKENS.ToolRegistry),
        runner: get(ctx, TOKENS.ToolRunner),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
        logger: get(ctx, TOKENS.Logger),
        telemetry: get(ctx, TOKENS.Telemetry),
        settings: get(ctx, GUARD_TOKENS.ExecutionSettings),
      }),
  );
  bind.singleton(TOKENS.GuardCall, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    return new TracedGuardCall(get(ctx, TOKENS.Telemetry), {
      tools: get(ctx, TOKENS.ToolRegistry),
      approvals: get(ctx, TOKENS.ApprovalBook),
      grants: get(ctx, TOKENS.GrantBook),
      runner: get(ctx, TOKENS.ToolRunner),
      executeApproved: get(ctx, TOKENS.ExecuteApproved),
      settings: { policy: config.policy, approvalTtlMs: config.approvalTtlSeconds * 1000 },
      ids: get(ctx, TOKENS.Ids),
      clock: get(ctx, TOKENS.Clock),
      audit: get(ctx, TOKENS.AuditTrail),
      egressPreview: new EgressPreview(get(ctx, TOKENS.Egress)),
      meter: get(ctx, TOKENS.UsageMeter),
    });
  });
  bind.singleton(TOKENS.GuardUseCases, (ctx) => {
    const approvals = get(ctx, TOKENS.ApprovalBook);
    const grants = get(ctx, TOKENS.GrantBook);
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
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => guardRoutes(get(ctx, TOKENS.GuardUseCases)));
  bind(TOKENS.StatusBlocks).toDynamicValue((ctx) => ({
    guard: true,
    actions: get(ctx, TOKENS.ToolRegistry).list().length > 0,
  }));
});
