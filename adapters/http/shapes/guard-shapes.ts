import { z } from 'zod';
import { isoTime, nextCursor, Risk } from './common-shapes.js';

const GrantReach = z
  .union([
    z.object({ kind: z.literal('anywhere') }),
    z.object({
      kind: z.literal('automation'),
      automationId: z.string(),
      name: z.string().optional().describe("The automation's name when the grant was asked for."),
    }),
  ])
  .meta({
    id: 'GrantReach',
    description:
      "Which of the subject's calls a grant may cover: `anywhere` (wherever its session and door consent allow) or `automation` (only calls made by a run of that automation).",
  });

const ApprovalRequest = z
  .object({
    toolCallId: z.string(),
    tool: z.string(),
    input: z.unknown(),
    risk: Risk,
    egress: z.boolean(),
    preview: z.string().describe('One line a person can read: what the call will do.'),
    venue: z.enum(['chat', 'app', 'automation', 'mcp']),
    presence: z.enum(['present', 'away']),
    session: z.string(),
    threadId: z.string().optional(),
    runId: z.string().optional(),
    automationId: z.string().optional(),
    appliesTo: GrantReach.optional().describe(
      "On an approval an automation raised: a grant it leaves (the standing grant an arming ask asks for, or a remembered yes) covers only that automation's runs.",
    ),
    appId: z.string().optional(),
    contentHash: z.string().optional(),
  })
  .meta({ id: 'ApprovalRequest', description: 'What was asked.' });

const ApprovalOutcome = z
  .union([
    z.object({ kind: z.literal('executed'), ok: z.literal(true), output: z.unknown() }),
    z.object({ kind: z.literal('executed'), ok: z.literal(false), error: z.string() }),
    z.object({ kind: z.literal('denied') }),
    z.object({ kind: z.literal('expired'), reason: z.enum(['timeout', 'dropped', 'invalidated']) }),
  ])
  .meta({ id: 'ApprovalOutcome' });

export const Approval = z
  .object({
    id: z.string().describe('The `apr_` id.'),
    state: z.enum(['pending', 'approved', 'denied', 'expired', 'executed']),
    request: ApprovalRequest.optional().describe(
      'Absent while pending in the resume window (the approved call is executing): keep polling until `executed`.',
    ),
    outcome: ApprovalOutcome.optional(),
  })
  .meta({ id: 'Approval' });

export const ApprovalList = z
  .object({ approvals: z.array(Approval), nextCursor })
  .meta({ id: 'ApprovalList', description: "The caller's pending approvals." });

export const DecidedApprovals = z.object({ approvals: z.array(Approval) }).meta({ id: 'DecidedApprovals' });

export const Grant = z
  .object({
    id: z.string(),
    subject: z.string(),
    tool: z.string(),
    scope: z.enum(['tool', 'exact']),
    duration: z.enum(['session', 'standing']),
    session: z.string().nullable(),
    appliesTo: GrantReach,
    origin: z.union([
      z.object({ kind: z.literal('approval'), approvalId: z.string() }),
      z.object({ kind: z.literal('automation'), automationId: z.string(), approvalId: z.string() }),
    ]),
    createdAt: isoTime,
    revokedAt: isoTime.nullable(),
  })
  .meta({ id: 'Grant', description: "A remembered yes: matching calls of the grant's subject run without asking." });

export const GrantList = z.object({ grants: z.array(Grant), nextCursor }).meta({ id: 'GrantList' });
