import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import { PayloadTooLarge } from '../../domain/errors.js';
import { JSON_DEPTH_LIMIT, jsonDepth } from '../../domain/json-depth.js';
import type { z } from 'zod';
import type { ClientCredentials, DoorSite } from '../../ports/use-cases/door.js';
import type { WebExchange } from '../shared/web-handler.js';
import type { DoorUrls } from './door-urls.js';
import { defined } from '../../domain/defined.js';

/** OAuth requests are small; anything bigger is not one. */
const FORM_LIMIT = 16 * 1024;
const JSON_LIMIT = 64 * 1024;

export function mediaTypeOf(request: Request): string {
  return ((request.headers.get('content-type') ?? '').split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * An `application/x-www-form-urlencoded` body as one value per name. A repeated parameter is refused
 * (RFC 6749 §3.1: parameters must not be included more than once).
 */
export async function readForm(request: Request, exchange: WebExchange): Promise<Record<string, string>> {
  if (mediaTypeOf(request) !== 'application/x-www-form-urlencoded') {
    throw new OAuthRefusal('invalid_request', 'The request must be sent as application/x-www-form-urlencoded');
  }
  const text = await readText(exchange, FORM_LIMIT);
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(form, name)) throw new OAuthRefusal('invalid_request', `The parameter ${name} appears more than once`);
    form[name] = value;
  }
  return form;
}

/** A JSON body (dynamic client registration, RFC 7591 §3.1). */
export async function readJson(request: Request, exchange: WebExchange): Promise<unknown> {
  if (mediaTypeOf(request) !== 'application/json')
    throw new OAuthRefusal('invalid_client_metadata', 'Client metadata must be sent as application/json');
  const text = await readText(exchange, JSON_LIMIT);
  if (jsonDepth(text, JSON_DEPTH_LIMIT) > JSON_DEPTH_LIMIT)
    throw new OAuthRefusal('invalid_client_metadata', `The body nests deeper than ${JSON_DEPTH_LIMIT} levels`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new OAuthRefusal('invalid_client_metadata', 'The body is not valid JSON');
  }
}

const UTF8 = new TextDecoder();

async function readText(exchange: WebExchange, limit: number): Promise<string> {
  try {
    return UTF8.decode(await exchange.body(limit));
  } catch (error) {
    throw new OAuthRefusal(
      'invalid_request',
      error instanceof PayloadTooLarge ? 'The request body is too large' : 'The request body could not be read',
    );
  }
}

/**
 * The client's credentials from HTTP Basic (RFC 6749 §2.3.1: both parts form-urlencoded) or the
 * form. Using both at once is refused, as is a client_id that differs between them. Basic
 * credentials that cannot be read are, at the token endpoint, a client that failed to authenticate
 * (401 `invalid_client`, RFC 6749 §5.2) and, at revocation, a malformed request (400
 * `invalid_request`, the specification's table).
 */
export function clientCredentials(request: Request, form: Record<string, string>, endpoint: 'token' | 'revoke'): ClientCredentials {
  const malformed = () =>
    endpoint === 'token'
      ? new OAuthRefusal('invalid_client', 'The Basic credentials are malformed', 401)
      : new OAuthRefusal('invalid_request', 'The Basic credentials are malformed');
  const header = request.headers.get('authorization') ?? '';
  if (/^basic\s/i.test(header)) {
    if (form.client_secret !== undefined) throw new OAuthRefusal('invalid_request', 'Use one client authentication method, not two');
    const decoded = Buffer.from(header.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw malformed();
    const clientId = safeDecode(decoded.slice(0, colon), malformed);
    const clientSecret = safeDecode(decoded.slice(colon + 1), malformed);
    if (form.client_id !== undefined && form.client_id !== clientId)
      throw new OAuthRefusal('invalid_request', 'client_id differs from the authenticated client');
    return { clientId, clientSecret, via: 'client_secret_basic' };
  }
  if (form.client_secret !== undefined) return { clientId: form.client_id, clientSecret: form.client_secret, via: 'client_secret_post' };
  return { ...defined({ clientId: form.client_id }), via: 'none' };
}

function safeDecode(value: string, malformed: () => OAuthRefusal): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw malformed();
  }
}

/** The site a request reached the door on, as the use cases take it. */
export function siteOf(urls: DoorUrls): DoorSite {
  return { issuer: urls.issuer, resource: urls.resource };
}

/** A schema's complaints as one line an OAuth error description can carry. */
export function issuesOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
}
