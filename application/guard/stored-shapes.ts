import { z } from 'zod';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { StoredGrant } from '../../domain/guard/grant.js';
import { RISKS, VENUES, type Risk, type Venue } from '../../domain/guard/risk.js';

/** The shapes approvals and grants are stored in; the books check every row they read against them. */

const reach = z.union([
  z.object({ kind: z.literal('anywhere') }),
  z.object({ kind: z.literal('automation'), automationId: z.string(), name: z.string().optional() }),
]);

const remember = z.object({ scope: z.enum(['tool', 'exact']), duration: z.enum(['session', 'standing']) });

export const approvalShape = z.object({
  id: z.string(),
  subject: z.string(),
  state: z.enum(['pending', 'approved', 'denied', 'expired', 'executing', 'executed']),
  request: z.object({
    toolCallId: z.string(),
    tool: z.string(),
    input: z.unknown(),
    risk: z.enum(RISKS as [Risk, ...Risk[]]),
    egress: z.boolean(),
    preview: z.string(),
    venue: z.enum(VENUES as [Venue, ...Venue[]]),
    presence: z.enum(['present', 'away']),
    session: z.string(),
    threadId: z.string().optional(),
    runId: z.string().optional(),
    automationId: z.string().optional(),
    appliesTo: reach.optional(),
    appId: z.string().optional(),
    contentHash: z.string().optional(),
  }),
  inputDigest: z.string(),
  evidence: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
  remember: remember.nullable(),
  traceparent: z.string().max(256).optional(),
  outcome: z
    .union([
      z.object({ kind: z.literal('executed'), ok: z.literal(true), output: z.unknown() }),
      z.object({ kind: z.literal('executed'), ok: z.literal(false), error: z.string() }),
      z.object({ kind: z.literal('denied') }),
      z.object({ kind: z.literal('expired'), reason: z.enum(['timeout', 'dropped', 'invalidated']) }),
    ])
    .nullable(),
  heldBy: z.string().nullable(),
  heldAt: z.string().nullable().optional(),
  executingSince: z.string().nullable().optional(),
  executingUntil: z.string().nullable().optional(),
}) satisfies z.ZodType<ApprovalPrimitives>;

/** Rows written before grants said where they apply lack `appliesTo` (see `reachOf`). */
export const grantShape = z.object({
  id: z.string(),
  subject: z.string(),
  tool: z.string(),
  scope: z.enum(['tool', 'exact']),
  inputDigest: z.string().nullable(),
  duration: z.enum(['session', 'standing']),
  session: z.string().nullable(),
  evidence: z.string().nullable(),
  appliesTo: reach.optional(),
  origin: z.union([
    z.object({ kind: z.literal('approval'), approvalId: z.string() }),
    z.object({ kind: z.literal('automation'), automationId: z.string(), approvalId: z.string() }),
  ]),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
}) satisfies z.ZodType<StoredGrant>;
