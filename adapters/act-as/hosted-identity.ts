import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import type { Principal } from '../../domain/principal.js';
import type { ActAsMaterial, ActAsPreset } from '../../ports/act-as.js';
import type { WireRequest } from '../../ports/wire-request.js';
import { currentSecret, keyedBy, signedHs256, type SecretSource } from './secret-source.js';
import { defined } from '../../domain/defined.js';

/** The header that carries Porter's short-lived act-as token to the host. */
export const ACT_AS_HEADER = 'x-porter-act-as';
const AUDIENCE = 'porter-act-as';
const ISSUER = 'porter';

export interface HostedIdentityOptions {
  /** A secret the host owns and shares only with Porter. */
  readonly secret: SecretSource;
  /** Which identity headers the host's auth trusts (set by its identity proxy in production). */
  readonly identityHeaders?: { readonly subject: string; readonly email?: string; readonly name?: string };
  readonly ttlSeconds?: number;
}

const defaultHeaders = { subject: 'x-user-id', email: 'x-user-email', name: 'x-user-name' };

/**
 * Hosted identity providers (Clerk, WorkOS, Auth0, an identity-aware proxy) cannot mint a session
 * offline. Porter signs a short-lived token the host owns; the host mounts `verifyActAs` in front
 * of its API, which swaps a valid token for the identity headers its auth already trusts.
 */
export function hostedIdentity(options: HostedIdentityOptions): ActAsPreset {
  const verify = actAsVerifier(options);
  return keyedBy(options.secret, {
    kind: 'hosted-identity',
    async mint(principal: Principal): Promise<ActAsMaterial> {
      const { token, expiresAt } = await signedHs256(options.secret, {
        subject: principal.subject,
        claims: defined({ email: principal.email || undefined, name: principal.name || undefined }),
        issuer: ISSUER,
        audience: AUDIENCE,
        ttlSeconds: options.ttlSeconds ?? 60,
      });
      return { headers: { [ACT_AS_HEADER]: token }, expiresAt };
    },
    async asHostSees(request: WireRequest): Promise<WireRequest> {
      const headers = await verify({ ...request.headers });
      return { ...request, headers };
    },
  });
}

/**
 * Verifies Porter's act-as token and returns the headers the host should see: identity headers set
 * from the token, the token itself removed. Identity headers that arrived from outside are always
 * stripped, so nobody can set them by hand; an invalid or expired token leaves none.
 */
export function actAsVerifier(options: Pick<HostedIdentityOptions, 'secret' | 'identityHeaders'>) {
  const names = { ...defaultHeaders, ...options.identityHeaders };
  return async (
    headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
  ): Promise<Record<string, string | string[] | undefined>> => {
    const out: Record<string, string | string[] | undefined> = { ...headers };
    const token = out[ACT_AS_HEADER];
    for (const name of [ACT_AS_HEADER, names.subject, names.email, names.name]) if (name) delete out[name];
    if (typeof token !== 'string') return out;
    try {
      const { payload } = await jwtVerify(token, new TextEncoder().encode(currentSecret(options.secret)), {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string') return out;
      out[names.subject] = payload.sub;
      if (names.email && typeof payload.email === 'string') out[names.email] = payload.email;
      if (names.name && typeof payload.name === 'string') out[names.name] = payload.name;
    } catch {
      // invalid or expired: the request goes on without identity
    }
    return out;
  };
}

/** The verify middleware for a host's Koa app: `app.use(verifyActAs({ secret }))` before its auth. */
export function verifyActAs(options: Pick<HostedIdentityOptions, 'secret' | 'identityHeaders'>) {
  const verify = actAsVerifier(options);
  return async (ctx: { req: IncomingMessage }, next: () => Promise<unknown>) => {
    await applyTo(ctx.req, verify);
    return next();
  };
}

/** The same for a plain Node or connect-style server: `(req, res, next)`. */
export function verifyActAsNode(options: Pick<HostedIdentityOptions, 'secret' | 'identityHeaders'>) {
  const verify = actAsVerifier(options);
  return (req: IncomingMessage, _res: ServerResponse, next: (error?: unknown) => void) => {
    applyTo(req, verify).then(() => next(), next);
  };
}

async function applyTo(req: IncomingMessage, verify: ReturnType<typeof actAsVerifier>): Promise<void> {
  const headers = await verify(req.headers);
  for (const name of Object.keys(req.headers)) if (!(name in headers)) delete req.headers[name];
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) req.headers[name] = value;
}
