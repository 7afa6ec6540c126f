import { ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { Store } from '../../ports/store.js';
import type { SystemUseCases } from '../../ports/use-cases/system.js';
import type { IdentityUseCases } from '../../ports/use-cases/identity.js';
import { GetStatus, type DeploymentFacts } from '../../application/system/get-status.js';
import { ListActivity } from '../../application/system/list-activity.js';
import { AdoptAnonymousSession, type AdoptionMarker } from '../../application/identity/adopt-anonymous-session.js';
import type { SessionAdopter } from '../../application/identity/session-adopter.js';
import { systemRoutes } from '../../adapters/http/routes/system-routes.js';
import { doctorBaseUrlRoutes } from '../../adapters/http/routes/doctor-base-url-routes.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';
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
export const systemModule = new ContainerModule(({ bind }) => {
  bind<DeploymentFacts>(TOKENS.DeploymentFacts)
    .toDynamicValue((ctx) => {
      const contributions = ctx.getAll<Partial<DeploymentFacts['blocks']>>(TOKENS.StatusBlocks, { optional: true });
      return deploymentFacts(ctx.get(TOKENS.Config), ctx.get(TOKENS.Store), Object.assign({}, ...contributions));
    })
    .inSingletonScope();
  bind<SystemUseCases>(TOKENS.SystemUseCases)
    .toDynamicValue((ctx) => ({
      getStatus: new GetStatus(ctx.get<DeploymentFacts>(TOKENS.DeploymentFacts)),
      listActivity: new ListActivity(ctx.get(TOKENS.AuditLog)),
    }))
    .inSingletonScope();
  bind<IdentityUseCases>(TOKENS.IdentityUseCases)
    .toDynamicValue((ctx) => ({
      adoptAnonymousSession: new AdoptAnonymousSession(
        ctx.get<Store>(TOKENS.Store).records<AdoptionMarker>('adoptions'),
        ctx.getAll<SessionAdopter>(TOKENS.SessionAdopters, { optional: true }),
        ctx.get(TOKENS.Clock),
      ),
    }))
    .inSingletonScope();
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => systemRoutes(ctx.get(TOKENS.SystemUseCases)));
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => doctorBaseUrlRoutes(Boolean(ctx.get<PorterConfig>(TOKENS.Config).baseUrl)));
});
