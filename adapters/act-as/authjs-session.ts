import type * as AuthjsJwtModule from '@auth/core/jwt';
import type { Principal } from '../../domain/principal.js';
import type { ActAsMaterial, ActAsPreset } from '../../ports/act-as.js';
import type { WireRequest } from '../../ports/wire-request.js';
import { currentSecret, keyedBy, type SecretSource } from './secret-source.js';

export interface AuthjsSessionOptions {
  /** The host's AUTH_SECRET. */
  readonly secret: SecretSource;
  /** The session cookie the host reads; `__Secure-authjs.session-token` on https hosts. */
  readonly cookieName?: string;
  /** Lifetime of a minted session, in seconds. */
  readonly maxAgeSeconds?: number;
  /** Extra claims for the session token (the subject always goes in `sub`). */
  readonly claims?: (principal: Principal) => Record<string, unknown>;
}

type AuthjsJwt = typeof AuthjsJwtModule;

/** Auth.js's own JWT module: an optional package, loaded once when this preset is used. */
let jwtModule: Promise<AuthjsJwt> | null = null;
function authjsJwt(): Promise<AuthjsJwt> {
  jwtModule ??= import('@auth/core/jwt');
  jwtModule.catch(() => {
    jwtModule = null;
  });
  return jwtModule;
}

/**
 * Session-library preset for Auth.js (NextAuth) hosts using JWT sessions: mints a provider-native
 * session cookie offline with `@auth/core/jwt`, exactly as Auth.js would after a sign-in.
 */
export function authjsSession(options: AuthjsSessionOptions): ActAsPreset {
  const cookieName = options.cookieName ?? 'authjs.session-token';
  const maxAge = options.maxAgeSeconds ?? 300;
  return keyedBy(options.secret, {
    kind: 'session-library',
    requires: '@auth/core',
    async prepare() {
      await authjsJwt();
    },
    async mint(principal: Principal): Promise<ActAsMaterial> {
      const { encode } = await authjsJwt();
      const token = await encode({
        salt: cookieName,
        secret: currentSecret(options.secret),
        maxAge,
        token: { sub: principal.subject, name: principal.name ?? null, email: principal.email ?? null, ...options.claims?.(principal) },
      });
      return { headers: { cookie: `${cookieName}=${token}` }, expiresAt: Date.now() + maxAge * 1000 };
    },
    async asHostSees(request: WireRequest): Promise<WireRequest> {
      return request;
    },
  });
}
