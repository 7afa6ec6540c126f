import { z } from 'zod';
import type { ErrorCode } from '../../../domain/errors.js';
import { STATUS_BY_CODE } from '../error-envelope.js';
import { isOrgScoped } from '../wire-paths.js';
import type { WireRoute } from '../wire-route.js';
import { isCsrfExempt, readsOwnBody, STATE_CHANGING } from '../wire-paths.js';
import type { RouteAccess } from '../wire-routes.js';
import { defined } from '../../../domain/defined.js';

/** What each envelope code means on the wire (docs/wire.md lists them). */
const MEANING: Readonly<Record<ErrorCode, string>> = {
  validation:
    'The request is not valid: a malformed JSON body, JSON nested deeper than 64 levels, or input that fails its schema (`details.issues` lists each problem).',
  unauthorized: 'The request could not be authenticated (a bad signature or secret).',
  'cloud-required':
    'Organizations are a Porter Cloud capability: `/orgs`, and any `org` query or body field on `/approvals` and `/grants`, are refused before the principal resolver runs.',
  forbidden: 'Not allowed: e.g. the host resolver returned a reserved (`porter:`) subject or a principal of kind `org`.',
  'not-found': 'No such thing for this caller: an unknown id, or one that belongs to someone else (never revealed), or no such route.',
  'method-not-allowed':
    'The path exists but does not take this method (any method, `TRACE` among them); `Allow` lists the methods it takes.',
  conflict: "The thing's state does not allow this now.",
  'payload-too-large':
    'The body is over its limit (JSON bodies: 4 MiB). Answered as soon as the limit is passed, with `Connection: close`: Porter reads and discards the rest of the body, then closes the connection.',
  'unsupported-media-type':
    'A cookie-carrying request that changes state must be `application/json` (the CSRF floor), or the route demands another type.',
  'rate-limited': 'A usage limit or breaker tripped; `Retry-After` says when to try again and `details` names the budget.',
  internal: 'Something unexpected went wrong; the message is generic and the log has the cause.',
  'not-implemented': 'This deployment did not configure what the request needs (a model, a sandbox, a connection broker).',
  unavailable:
    'A dependency is down or did not answer within its timeout (the database: `databaseTimeouts`), or the store cannot do this exactly once (no atomic operations): the request failed closed.',
};

/** `payload-too-large` → `PayloadTooLarge`: the name of the shared response in `components.responses`. */
export function errorResponseName(code: ErrorCode): string {
  return code.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
}

/** The shared error response for a code, its body the envelope. */
export function errorResponse(code: ErrorCode, envelope: Record<string, unknown>): Record<string, unknown> {
  const headers =
    code === 'rate-limited'
      ? { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } }
      : code === 'unauthorized'
        ? { 'WWW-Authenticate': { description: 'The scheme to authenticate with.', schema: { type: 'string' } } }
        : code === 'method-not-allowed'
          ? { Allow: { description: 'The methods this path takes, e.g. `GET, HEAD, DELETE`.', schema: { type: 'string' } } }
          : undefined;
  return {
    description: `\`${code}\`: ${MEANING[code]}`,
    ...defined({ headers }),
    content: { 'application/json': { schema: envelope } },
  };
}

/**
 * The envelope errors a route can answer: those the floor in front of it implies (by its access
 * group, method and path) and those it declares. Sorted by status.
 */
export function envelopeErrorsOf(access: RouteAccess, declared: WireRoute, relativePath: string): ErrorCode[] {
  const codes = new Set<ErrorCode>(declared.errors ?? []);
  const floored = access === 'principal' || access === 'open';
  const method = declared.method.toUpperCase();
  // A path parameter its schema refuses names nothing: 404, like an unknown id.
  if (Object.values(declared.params ?? {}).some(mayRefuse)) codes.add('not-found');
  if (declared.query !== undefined || declared.body?.kind === 'json') codes.add('validation');
  if (floored && STATE_CHANGING.has(method) && !readsOwnBody(relativePath)) {
    // The floor reads JSON bodies: malformed JSON is 400, a body over the limit 413.
    codes.add('validation').add('payload-too-large');
  }
  if (floored && STATE_CHANGING.has(method) && !isCsrfExempt(method, relativePath)) codes.add('unsupported-media-type');
  if (access === 'principal') {
    codes.add('forbidden');
    if (isOrgScoped(relativePath)) codes.add('cloud-required');
    if (Object.keys(declared.params ?? {}).length > 0) codes.add('not-found');
  }
  codes.add('internal');
  return [...codes].sort((a, b) => STATUS_BY_CODE[a] - STATUS_BY_CODE[b]);
}

/** Whether a path parameter's schema can refuse a value (any string passes a bare `z.string()`). */
function mayRefuse(schema: z.ZodType): boolean {
  const inner = schema instanceof z.ZodOptional ? schema.unwrap() : schema;
  return !(inner instanceof z.ZodString) || (inner._zod.def.checks?.length ?? 0) > 0;
}
