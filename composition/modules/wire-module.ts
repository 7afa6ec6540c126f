import { ContainerModule } from 'inversify';
import { randomBytes } from 'node:crypto';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import { PORTER_VERSION } from '../version.js';
import { createKoaWire, type KoaWire } from '../../adapters/http/koa-wire.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';
import type { Logger } from '../../ports/logger.js';

/** The Koa wire, assembled from every family's routes bound under TOKENS.WireRoutes. */
export const wireModule = new ContainerModule(({ bind }) => {
  bind<KoaWire>(TOKENS.KoaWire)
    .toDynamicValue((ctx) => {
      const config = ctx.get<PorterConfig>(TOKENS.Config);
      return createKoaWire({
        mount: config.mount,
        cookieKeys: cookieKeys(config, ctx.get<Logger>(TOKENS.Logger)),
        trustProxy: config.trustProxy,
        routes: ctx.getAll<WireRoutes>(TOKENS.WireRoutes),
        openApi: { version: PORTER_VERSION },
        resolve: ctx.get(TOKENS.PrincipalResolver),
        identity: ctx.get(TOKENS.IdentityUseCases),
        ids: ctx.get(TOKENS.Ids),
        logger: ctx.get(TOKENS.Logger),
      });
    })
    .inSingletonScope();
});

/** Production requires a secret (the schema says so); development may run on a per-boot one. */
function cookieKeys(config: PorterConfig, logger: Logger): string[] {
  if (config.secret) return Array.isArray(config.secret) ? config.secret : [config.secret];
  logger.warn('no PORTER_SECRET set: anonymous sessions are signed with a per-boot key and end on restart');
  return [randomBytes(32).toString('base64url')];
}
