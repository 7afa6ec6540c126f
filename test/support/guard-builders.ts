import { Grant } from '../../domain/guard/grant.js';
import type { RuledCall } from '../../domain/guard/tool-call.js';

/** The instant guard tests start at, and `ms` after it. */
export const T0 = '2026-06-01T12:00:00.000Z';
export const at = (ms: number): string => new Date(Date.parse(T0) + ms).toISOString();

/** Ada's write call to `notes_add` in a chat, as the guard has ruled it; override what a test is about. */
export function ruledCall(overrides: Partial<RuledCall> = {}): RuledCall {
  return {
    toolCallId: 'call_1',
    tool: 'notes_add',
    input: { text: 'x' },
    inputDigest: 'd',
    principal: { subject: 'ada', kind: 'user' },
    venue: 'chat',
    presence: 'present',
    session: 'thr_1',
    effective: { risk: 'write', egress: false },
    ...overrides,
  };
}

/** What ada's standing grant of `notes_add`, for any input and not bound to a session, is made of. */
export const ADA_STANDS_FOR_NOTES = {
  subject: 'ada',
  tool: 'notes_add',
  scope: 'tool',
  inputDigest: null,
  duration: 'standing',
  session: null,
  evidence: null,
} as const;

/** A standing grant of `tool` to `subject`, for any input and not bound to a session, approved at T0. */
export function standingGrant(id: string, subject: string, tool: string): Grant {
  return Grant.create({
    ...ADA_STANDS_FOR_NOTES,
    id,
    subject,
    tool,
    origin: { kind: 'approval', approvalId: `apr_${id}` },
    createdAt: T0,
  });
}
