import { randomBytes } from 'node:crypto';
import { get, getAll, porterModule, TOKENS } from '../tokens.js';
import { SYSTEM_TOKENS } from './system-tokens.js';
import { WIRE_TOKENS } from './wire-tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import { PORTER_VERSION } from '../version.js';
import { createKoaWire } from '../../adapters/http/koa-wire.js';
import type { Logger } from '../../ports/logger.js';

/** The Koa wire, assembled from every family's routes bound under TOKENS.WireRoutes. */
export const wireModule = porterModule((bind) => {
  bind.singleton(WIRE_TOKENS.KoaWire, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    return createKoaWire({
      mount: config.mount,
      cookieKeys: cookieKeys(config, get(ctx, TOKENS.Logger)),
      trustProxy: config.trustProxy,
      routes: getAll(ctx, TOKENS.WireRoutes),
      openApi: { version: PORTER_VERSION },
      resolve: get(ctx, TOKENS.PrincipalResolver),
      identity: get(ctx, SYSTEM_TOKENS.IdentityUseCases),
      ids: get(ctx, TOKENS.Ids),
      logger: get(ctx, TOKENS.Logger),
      telemetry: get(ctx, TOKENS.Telemetry),
    });
  });
});

/** Production requires a secret (the schema says so); development may run on a per-boot one. */
function cookieKeys(config: PorterConfig, logger: Logger): string[] {
  if (config.secret) return Array.isArray(config.secret) ? config.secret : [config.secret];
  logger.warn('no PORTER_SECRET set: anonymous sessions are signed with a per-boot key and end on restart');
  return [randomBytes(32).toString('base64url')];
}
