import type { Principal } from '../domain/principal.js';
import type { WireRequest } from './wire-request.js';

/** Credentials that make the host see a call as coming from a given user. */
export interface ActAsMaterial {
  /** Headers to add to the outbound call (Authorization, Cookie, ...). */
  readonly headers: Readonly<Record<string, string>>;
  /** Epoch milliseconds after which the material is no longer accepted. */
  readonly expiresAt: number;
}

/**
 * An act-as preset: mints material for a principal. `fingerprint` identifies the secret in use so
 * a cache keyed by it drops everything the moment the secret rotates.
 */
export interface ActAsPreset {
  readonly kind: 'session-library' | 'hosted-identity' | 'jwt';
  readonly fingerprint: string;
  mint(principal: Principal): Promise<ActAsMaterial>;
  /**
   * What the host sees once its own middleware has handled the material (the hosted-identity
   * preset's verify middleware swaps a token for identity headers). Identity for the others.
   */
  asHostSees(request: WireRequest): Promise<WireRequest>;
  /** An optional package the preset mints with, named when it is missing (e.g. `@auth/core`). */
  readonly requires?: string;
  /** Loads what minting needs; called at boot, so a missing package fails there, not on first use. */
  prepare?(): Promise<void>;
}
