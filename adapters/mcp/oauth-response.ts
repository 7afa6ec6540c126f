import type { Context } from 'koa';
import { AtomicityUnavailable } from '../../domain/errors.js';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import type { Logger } from '../../ports/logger.js';

/** Token responses and refusals are never cached (RFC 6749 §5.1). */
export function noStore(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
}

/**
 * Runs an OAuth endpoint and answers any failure in OAuth's shape, `{error, error_description}`,
 * never the wire envelope: 401 `invalid_client` with `WWW-Authenticate` naming the Basic scheme
 * the door takes client secrets in (RFC 6749 §5.2; HTTP requires the header on every 401), also
 * for an unknown `client_id` sent in the form; 503 when the store cannot do the step atomically,
 * 500 (logged, generic) for anything unexpected.
 */
export async function answeringOAuthErrors(ctx: Context, logger: Logger, handle: () => Promise<void>): Promise<void> {
  try {
    await handle();
  } catch (error) {
    noStore(ctx);
    if (error instanceof OAuthRefusal) {
      ctx.status = error.status;
      ctx.body = error.toBody();
      if (error.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="porter-door"');
      return;
    }
    if (error instanceof AtomicityUnavailable) {
      ctx.status = 503;
      ctx.body = { error: 'temporarily_unavailable', error_description: error.message };
      return;
    }
    logger.error('door OAuth endpoint failed', {
      path: ctx.path,
      cause: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    ctx.status = 500;
    ctx.body = { error: 'server_error', error_description: 'Something went wrong on our side' };
  }
}
