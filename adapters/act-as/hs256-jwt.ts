import { SignJWT } from 'jose';
import type { Principal } from '../../domain/principal.js';
import type { ActAsMaterial, ActAsPreset } from '../../ports/act-as.js';
import type { WireRequest } from '../../ports/wire-request.js';
import { currentSecret, fingerprintOf, type SecretSource } from './secret-source.js';

export interface Hs256JwtOptions {
  /** The provider's JWT signing secret (Supabase's JWT secret, Hasura's, your own). */
  readonly secret: SecretSource;
  readonly issuer?: string;
  readonly audience?: string;
  readonly ttlSeconds?: number;
  /** Provider-specific claims, e.g. `{ role: 'authenticated' }` for Supabase. */
  readonly claims?: (principal: Principal) => Record<string, unknown>;
  /** Where the token goes; `Authorization: Bearer <jwt>` by default. */
  readonly header?: string;
}

/** Any HS256 JWT provider: signs `{sub, ...claims}` with the provider's secret (jose). */
export function hs256Jwt(options: Hs256JwtOptions): ActAsPreset {
  const ttl = options.ttlSeconds ?? 300;
  const header = (options.header ?? 'authorization').toLowerCase();
  return {
    kind: 'jwt',
    get fingerprint() {
      return fingerprintOf(options.secret);
    },
    async mint(principal: Principal): Promise<ActAsMaterial> {
      const now = Math.floor(Date.now() / 1000);
      let jwt = new SignJWT({ ...options.claims?.(principal) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(principal.subject)
        .setIssuedAt(now)
        .setExpirationTime(now + ttl);
      if (options.issuer) jwt = jwt.setIssuer(options.issuer);
      if (options.audience) jwt = jwt.setAudience(options.audience);
      const token = await jwt.sign(new TextEncoder().encode(currentSecret(options.secret)));
      return { headers: { [header]: header === 'authorization' ? `Bearer ${token}` : token }, expiresAt: (now + ttl) * 1000 };
    },
    async asHostSees(request: WireRequest): Promise<WireRequest> {
      return request;
    },
  };
}
