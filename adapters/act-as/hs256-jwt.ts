import type { Principal } from '../../domain/principal.js';
import type { ActAsMaterial, ActAsPreset } from '../../ports/act-as.js';
import type { WireRequest } from '../../ports/wire-request.js';
import { keyedBy, signedHs256, type SecretSource } from './secret-source.js';

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
  const header = (options.header ?? 'authorization').toLowerCase();
  return keyedBy(options.secret, {
    kind: 'jwt',
    async mint(principal: Principal): Promise<ActAsMaterial> {
      const { token, expiresAt } = await signedHs256(options.secret, {
        subject: principal.subject,
        claims: options.claims?.(principal),
        issuer: options.issuer,
        audience: options.audience,
        ttlSeconds: options.ttlSeconds ?? 300,
      });
      return { headers: { [header]: header === 'authorization' ? `Bearer ${token}` : token }, expiresAt };
    },
    async asHostSees(request: WireRequest): Promise<WireRequest> {
      return request;
    },
  });
}
