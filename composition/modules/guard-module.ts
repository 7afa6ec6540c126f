import { ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { Store } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import type { ToolDefinition, ToolRegistry } from '../../ports/tool-registry.js';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { StoredGrant } from '../../domain/guard/grant.js';
import type { StatusBlocks } from '../../ports/use-cases/system.js';
import { ApprovalBook } from '../../application/guard/approval-book.js';
import { GrantBook } from '../../application/guard/grant-book.js';
import { ActAsSeam } from '../../application/guard/act-as-seam.js';
import { HostAccess } from '../../application/guard/host-access.js';
import { ToolRunner } from '../../application/guard/tool-runner.js';
import { ExecuteApproved } from '../../application/guard/execute-approved.js';
import { GuardCall } from '../../application/guard/guard-call.js';
import { DecideApproval, DecisionEffects } from '../../application/guard/decide-approval.js';
import { DecideApprovals } from '../../application/guard/decide-approvals.js';
import { GetApproval } from '../../application/guard/get-approval.js';
import { ListApprovals } from '../../application/guard/list-approvals.js';
import { ListGrants } from '../../application/guard/list-grants.js';
import { RevokeGrant } from '../../application/guard/revoke-grant.js';
import type { ApprovalHook } from '../../application/guard/approval-hooks.js';
import type { ToolConnections } from '../../application/connections/connection-gate.js';
import { EgressPreview } from '../../application/guard/egress-preview.js';
import type { Egress } from '../../ports/egress.js';
import { GuardedEgress } from '../../adapters/shared/egress/guarded-egress.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import { BaseUrlHostApi } from '../../adapters/host/base-url-host-api.js';
import { guardRoutes } from '../../adapters/http/routes/guard-routes.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';

/** The guard: tools, risk, grants, policy, approvals and the act-as seam, with their routes. */
export const guardModule = new ContainerModule(({ bind }) => {
  bind<ToolRegistry>(TOKENS.ToolRegistry)
    .toDynamicValue((ctx) => {
      const config = ctx.get<PorterConfig>(TOKENS.Config);
      const porterTools = ctx.getAll<ToolDefinition>(TOKENS.PorterTools, { optional: true });
      return new StaticToolRegistry([...porterTools, ...config.tools]);
    })
    .inSingletonScope();
  bind(TOKENS.ApprovalBook)
    .toDynamicValue((ctx) => new ApprovalBook(ctx.get<Store>(TOKENS.Store).records<ApprovalPrimitives>('approvals')))
    .inSingletonScope();
  bind(TOKENS.GrantBook)
    .toDynamicValue((ctx) => new GrantBook(ctx.get<Store>(TOKENS.Store).records<StoredGrant>('grants')))
    .inSingletonScope();
  bind(TOKENS.ActAsSeam)
    .toDynamicValue(
      (ctx) => new ActAsSeam(ctx.get<PorterConfig>(TOKENS.Config).actAs ?? null, ctx.get(TOKENS.AuditTrail), ctx.get(TOKENS.Clock)),
    )
    .inSingletonScope();
  bind(TOKENS.HostAccess)
    .toDynamicValue((ctx) => {
      const baseUrl = ctx.get<PorterConfig>(TOKENS.Config).baseUrl;
      return new HostAccess(baseUrl ? new BaseUrlHostApi(baseUrl) : null, ctx.get(TOKENS.ActAsSeam), ctx.get(TOKENS.AuditTrail));
    })
    .inSingletonScope();
  // Strict everywhere, development included: no address class is allowed besides public ones.
  bind<Egress>(TOKENS.Egress)
    .toDynamicValue(() => new GuardedEgress())
    .inSingletonScope();
  bind(TOKENS.ToolRunner)
    .toDynamicValue(
      (ctx) =>
        new ToolRunner(
          ctx.get(TOKENS.HostAccess),
          ctx.get<ToolConnections>(TOKENS.ConnectionGate, { optional: true }) ?? null,
          ctx.get<Egress>(TOKENS.Egress),
        ),
    )
    .inSingletonScope();
  bind(TOKENS.ExecuteApproved)
    .toDynamicValue(
      (ctx) =>
        new ExecuteApproved(
          ctx.get(TOKENS.ApprovalBook),
          ctx.get(TOKENS.ToolRegistry),
          ctx.get(TOKENS.ToolRunner),
          ctx.get(TOKENS.Clock),
          ctx.get(TOKENS.AuditTrail),
          ctx.get(TOKENS.Logger),
        ),
    )
    .inSingletonScope();
  bind(TOKENS.GuardCall)
    .toDynamicValue((ctx) => {
      const config = ctx.get<PorterConfig>(TOKENS.Config);
      return new GuardCall(
        ctx.get(TOKENS.ToolRegistry),
        ctx.get(TOKENS.ApprovalBook),
        ctx.get(TOKENS.GrantBook),
        ctx.get(TOKENS.ToolRunner),
        ctx.get(TOKENS.ExecuteApproved),
        { policy: config.policy, approvalTtlMs: config.approvalTtlSeconds * 1000 },
        ctx.get(TOKENS.Ids),
        ctx.get(TOKENS.Clock),
        ctx.get(TOKENS.AuditTrail),
        new EgressPreview(ctx.get<Egress>(TOKENS.Egress)),
      );
    })
    .inSingletonScope();
  bind<GuardUseCases>(TOKENS.GuardUseCases)
    .toDynamicValue((ctx) => {
      const approvals = ctx.get<ApprovalBook>(TOKENS.ApprovalBook);
      const grants = ctx.get<GrantBook>(TOKENS.GrantBook);
      const clock = ctx.get<Clock>(TOKENS.Clock);
      const effects = new DecisionEffects(
        grants,
        ctx.getAll<ApprovalHook>(TOKENS.ApprovalHooks, { optional: true }),
        ctx.get(TOKENS.Ids),
        ctx.get(TOKENS.AuditTrail),
      );
      return {
        listApprovals: new ListApprovals(approvals, clock),
        getApproval: new GetApproval(approvals, clock),
        decideApproval: new DecideApproval(approvals, effects, clock),
        decideApprovals: new DecideApprovals(approvals, effects, clock, ctx.get(TOKENS.Ids)),
        listGrants: new ListGrants(grants),
        revokeGrant: new RevokeGrant(grants, clock, ctx.get(TOKENS.AuditTrail)),
      };
    })
    .inSingletonScope();
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => guardRoutes(ctx.get(TOKENS.GuardUseCases)));
  bind<Partial<StatusBlocks>>(TOKENS.StatusBlocks).toDynamicValue((ctx) => ({
    guard: true,
    actions: ctx.get<ToolRegistry>(TOKENS.ToolRegistry).list().length > 0,
  }));
});
