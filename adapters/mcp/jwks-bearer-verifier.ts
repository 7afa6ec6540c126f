import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';
import type { DoorBearer } from '../../domain/door/door-caller.js';
import type { DoorBearerVerifier } from '../../ports/door-bearer-verifier.js';
import type { Logger } from '../../ports/logger.js';
import { defined } from '../../domain/defined.js';

/** An external issuer that owns the door's OAuth (`remoteAs`). */
export interface RemoteIssuer {
  readonly issuer: string;
  /** Where its signing keys are; discovered from its metadata when absent. */
  readonly jwksUri?: string;
  /** The `aud` tokens must carry; the door's resource URL when absent (RFC 8707). */
  readonly audience?: string;
  /** Accepted signature algorithms; asymmetric ones only (a JWKS publishes public keys). */
  readonly algorithms?: ReadonlyArray<string>;
}

const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];

/** Only the two fields discovery needs; issuer metadata carries many more, which are ignored. */
const issuerMetadata = z.object({ issuer: z.string(), jwks_uri: z.url() });

/**
 * Verifies the external issuer's JWT access tokens against its JWKS (jose): signature, issuer,
 * audience, expiry. The consent source is the token itself: its `client_id` (RFC 9068) or `azp`
 * names the client the person consented to, and the evidence is projected from issuer and client
 * on every request. The projection is never stored.
 */
export class JwksBearerVerifier implements DoorBearerVerifier {
  private keys: Promise<ReturnType<typeof createRemoteJWKSet>> | null = null;

  constructor(
    private readonly remote: RemoteIssuer,
    private readonly logger: Logger,
  ) {}

  async verify(token: string, resource: string): Promise<DoorBearer | null> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.keySet(), {
        issuer: this.remote.issuer,
        audience: this.remote.audience ?? resource,
        algorithms: [...(this.remote.algorithms ?? DEFAULT_ALGORITHMS)],
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      if (!(error instanceof errors.JOSEError)) throw error;
      if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
        this.logger.warn("door: the external issuer's keys could not be read", { issuer: this.remote.issuer, cause: error.code });
      }
      return null;
    }
    const clientId = stringClaim(payload.client_id) ?? stringClaim(payload.azp);
    const scope =
      stringClaim(payload.scope) ?? (Array.isArray(payload.scp) ? payload.scp.filter((s) => typeof s === 'string').join(' ') : '');
    return {
      subject: payload.sub!,
      clientId,
      scope,
      evidence: clientId ? `remote:${this.remote.issuer}#${clientId}` : null,
      ...defined({ expiresAt: payload.exp }),
    };
  }

  private keySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    this.keys ??= this.locateKeys().catch((error: unknown) => {
      // Let the next request try discovery again rather than failing forever.
      this.keys = null;
      this.logger.warn("door: the external issuer's metadata could not be read", {
        issuer: this.remote.issuer,
        cause: error instanceof Error ? error.message : String(error),
      });
      throw error;
    });
    return this.keys;
  }

  private async locateKeys(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.remote.jwksUri) return createRemoteJWKSet(new URL(this.remote.jwksUri));
    for (const url of metadataUrls(this.remote.issuer)) {
      const response = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(5000) });
      if (!response.ok) {
        await response.body?.cancel();
        continue;
      }
      const metadata = issuerMetadata.parse(await response.json());
      if (metadata.issuer !== this.remote.issuer) throw new Error(`metadata at ${url} names issuer ${metadata.issuer}`);
      return createRemoteJWKSet(new URL(metadata.jwks_uri));
    }
    throw new Error('no RFC 8414 or OpenID metadata found for the issuer');
  }
}

/** RFC 8414 §3.1 (path insertion), then OpenID Connect Discovery (path appended). */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
}

function stringClaim(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
