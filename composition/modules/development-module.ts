import { get, getAll, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { DEVELOPMENT_TOKENS } from './development-tokens.js';
import type { StoredGrant } from '../../domain/guard/grant.js';
import { GrantDependents } from '../../application/development/grant-dependents.js';
import { MeasureSyncImpact } from '../../application/development/measure-sync-impact.js';
import { developmentRoutes } from '../../adapters/http/routes/development-routes.js';

/**
 * Development only: `POST /sync/impact`. Grants count their dependents here; apps and automations
 * bind their own ToolDependents under TOKENS.ToolDependents in their modules.
 */
export const developmentModule = porterModule((bind) => {
  bind(TOKENS.ToolDependents).toDynamicValue((ctx) => new GrantDependents(recordsOf<StoredGrant>(ctx, 'grants')));
  bind.singleton(DEVELOPMENT_TOKENS.DevelopmentUseCases, (ctx) => ({
    measureSyncImpact: new MeasureSyncImpact(getAll(ctx, TOKENS.ToolDependents)),
  }));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => developmentRoutes(get(ctx, DEVELOPMENT_TOKENS.DevelopmentUseCases)));
});
