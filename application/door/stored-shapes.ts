import { z } from 'zod';
import type { AuthorizationCodePrimitives } from '../../domain/door/authorization-code.js';
import type { PendingConsentPrimitives } from '../../domain/door/authorization-request.js';
import { CLIENT_AUTH_METHODS, type ClientAuthMethod, type DoorClientPrimitives } from '../../domain/door/door-client.js';
import type { DoorConsentPrimitives } from '../../domain/door/door-consent.js';
import type { TokenFamilyPrimitives } from '../../domain/door/token-family.js';

/** The shapes the door's aggregates are stored in; the books check every row they read against them. */

const ask = z.object({
  clientId: z.string(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  scope: z.string(),
  state: z.string().nullable(),
  resource: z.string(),
});

export const doorClientShape = z.object({
  id: z.string(),
  name: z.string(),
  redirectUris: z.array(z.string()),
  authMethod: z.enum(CLIENT_AUTH_METHODS as [ClientAuthMethod, ...ClientAuthMethod[]]),
  secretHash: z.string().nullable(),
  clientUri: z.string().nullable(),
  logoUri: z.string().nullable(),
  softwareId: z.string().nullable(),
  softwareVersion: z.string().nullable(),
  registeredAt: z.string(),
}) satisfies z.ZodType<DoorClientPrimitives>;

export const authorizationCodeShape = z.object({
  id: z.string(),
  ask,
  subject: z.string(),
  consentId: z.string(),
  evidence: z.string(),
  issuedAt: z.string(),
  expiresAt: z.string(),
  redeemedFor: z.string().nullable(),
}) satisfies z.ZodType<AuthorizationCodePrimitives>;

export const doorConsentShape = z.object({
  id: z.string(),
  subject: z.string(),
  clientId: z.string(),
  evidence: z.string(),
  scope: z.string(),
  grantedAt: z.string(),
}) satisfies z.ZodType<DoorConsentPrimitives>;

export const pendingConsentShape = z.object({
  id: z.string(),
  ask,
  subject: z.string(),
  expiresAt: z.string(),
}) satisfies z.ZodType<PendingConsentPrimitives>;

export const tokenFamilyShape = z.object({
  id: z.string(),
  clientId: z.string(),
  subject: z.string(),
  scope: z.string(),
  resource: z.string(),
  consentId: z.string(),
  evidence: z.string(),
  generation: z.number().int().nonnegative(),
  createdAt: z.string(),
  rotatedAt: z.string().nullable(),
  // Optional: families stored before the window counted its replays have only `gracedAt`.
  graced: z.number().int().nonnegative().optional(),
  gracedAt: z.string().nullable().optional(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  revokedBecause: z.enum(['revoked', 'refresh-token-reused', 'code-reused', 'consent-withdrawn']).nullable(),
}) satisfies z.ZodType<TokenFamilyPrimitives>;
