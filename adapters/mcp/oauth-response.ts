import { AtomicityUnavailable } from '../../domain/errors.js';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import type { Logger } from '../../ports/logger.js';
import { jsonResponse } from './web-exchange.js';
import { NO_STORE } from '../shared/web-answers.js';

/**
 * Runs an OAuth endpoint and answers any failure in OAuth's shape, `{error, error_description}`,
 * never the wire envelope: 401 `invalid_client` with `WWW-Authenticate` naming the Basic scheme
 * the door takes client secrets in (RFC 6749 §5.2; HTTP requires the header on every 401), also
 * for an unknown `client_id` sent in the form; 503 when the store cannot do the step atomically,
 * 500 (logged, generic) for anything unexpected.
 */
export async function answeringOAuthErrors(request: Request, logger: Logger, handle: () => Promise<Response>): Promise<Response> {
  try {
    return await handle();
  } catch (error) {
    if (error instanceof OAuthRefusal) {
      const challenge: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Basic realm="porter-door"' } : {};
      return jsonResponse(error.status, error.toBody(), { ...NO_STORE, ...challenge });
    }
    if (error instanceof AtomicityUnavailable)
      return jsonResponse(503, { error: 'temporarily_unavailable', error_description: error.message }, NO_STORE);
    logger.error('door OAuth endpoint failed', {
      path: new URL(request.url).pathname,
      cause: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return jsonResponse(500, { error: 'server_error', error_description: 'Something went wrong on our side' }, NO_STORE);
  }
}
