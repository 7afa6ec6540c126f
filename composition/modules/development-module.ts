import { ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { Store } from '../../ports/store.js';
import type { DevelopmentUseCases } from '../../ports/use-cases/development.js';
import type { StoredGrant } from '../../domain/guard/grant.js';
import type { ToolDependents } from '../../application/development/tool-dependents.js';
import { GrantDependents } from '../../application/development/grant-dependents.js';
import { MeasureSyncImpact } from '../../application/development/measure-sync-impact.js';
import { developmentRoutes } from '../../adapters/http/routes/development-routes.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';

/**
 * Development only: `POST /sync/impact`. Grants count their dependents here; apps and automations
 * bind their own ToolDependents under TOKENS.ToolDependents in their modules.
 */
export const developmentModule = new ContainerModule(({ bind }) => {
  bind<ToolDependents>(TOKENS.ToolDependents).toDynamicValue(
    (ctx) => new GrantDependents(ctx.get<Store>(TOKENS.Store).records<StoredGrant>('grants')),
  );
  bind<DevelopmentUseCases>(TOKENS.DevelopmentUseCases)
    .toDynamicValue((ctx) => ({ measureSyncImpact: new MeasureSyncImpact(ctx.getAll<ToolDependents>(TOKENS.ToolDependents)) }))
    .inSingletonScope();
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => developmentRoutes(ctx.get(TOKENS.DevelopmentUseCases)));
});
