import { get, getAll, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { SYSTEM_TOKENS } from './system-tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { Store } from '../../ports/store.js';
import { GetStatus, type DeploymentFacts } from '../../application/system/get-status.js';
import { ListActivity } from '../../application/system/list-activity.js';
import { AdoptAnonymousSession, type AdoptionMarker } from '../../application/identity/adopt-anonymous-session.js';
import { systemRoutes } from '../../adapters/http/routes/system-routes.js';
import { doctorBaseUrlRoutes } from '../../adapters/http/routes/doctor-base-url-routes.js';
import { PORTER_VERSION } from '../version.js';

/** What `GET /status` reports: the config, and what each family says it wired (TOKENS.StatusBlocks). */
export function deploymentFacts(config: PorterConfig, store: Store, wired: Partial<DeploymentFacts['blocks']> = {}): DeploymentFacts {
  return {
    version: PORTER_VERSION,
    blocks: {
      store: store.kind,
      agent: false,
      actions: false,
      guard: false,
      apps: config.apps,
      automations: config.automations,
      sandbox: false,
      model: 'ladder',
      mcp: config.mcp ? (config.remoteAs ? 'broker' : 'local') : false,
      connections: false,
      ...wired,
    },
  };
}

/** Status, activity, identity (anonymous-session adoption) and the always-on doctor route. */
export const systemModule = porterModule((bind) => {
  bind.singleton(SYSTEM_TOKENS.DeploymentFacts, (ctx) => {
    const contributions = getAll(ctx, TOKENS.StatusBlocks);
    return deploymentFacts(get(ctx, TOKENS.Config), get(ctx, TOKENS.Store), Object.assign({}, ...contributions));
  });
  bind.singleton(SYSTEM_TOKENS.SystemUseCases, (ctx) => ({
    getStatus: new GetStatus(get(ctx, SYSTEM_TOKENS.DeploymentFacts)),
    listActivity: new ListActivity(get(ctx, TOKENS.AuditLog)),
  }));
  bind.singleton(SYSTEM_TOKENS.IdentityUseCases, (ctx) => ({
    adoptAnonymousSession: new AdoptAnonymousSession(
      recordsOf<AdoptionMarker>(ctx, 'adoptions'),
      getAll(ctx, TOKENS.SessionAdopters),
      get(ctx, TOKENS.Clock),
    ),
  }));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => systemRoutes(get(ctx, SYSTEM_TOKENS.SystemUseCases)));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => doctorBaseUrlRoutes(Boolean(get(ctx, TOKENS.Config).baseUrl)));
});
