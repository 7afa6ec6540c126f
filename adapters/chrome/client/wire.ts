import { z } from 'zod';
import { defined } from '../../../domain/defined.js';

/** Where the wire is mounted, as the serving page says (`<meta name="porter-wire">`). */
export const WIRE = document.querySelector<HTMLMetaElement>('meta[name="porter-wire"]')?.content || '/api/porter';

/** A non-2xx answer of the wire, read from its error envelope. */
export class WireError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WireError';
  }
}

// Answers are read with z.object (unknown fields dropped, not refused): a newer server may add fields.
const envelope = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/**
 * One wire call. State-changing requests always go as `application/json` (the CSRF floor refuses
 * anything else from a cookie-carrying browser), DELETEs included.
 */
export async function wire<T>(
  method: string,
  path: string,
  options: { body?: unknown; schema?: z.ZodType<T>; signal?: AbortSignal } = {},
): Promise<T> {
  const changes = method !== 'GET' && method !== 'HEAD';
  let response: Response;
  try {
    response = await fetch(`${WIRE}${path}`, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...defined({ 'content-type': changes ? 'application/json' : undefined }) },
      ...defined({ body: options.body !== undefined ? JSON.stringify(options.body) : undefined, signal: options.signal }),
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new WireError(0, 'offline', 'Porter could not be reached. Check your connection and try again.');
  }
  const text = await response.text();
  const json: unknown = text ? safeJson(text) : null;
  if (!response.ok) {
    const parsed = envelope.safeParse(json);
    if (parsed.success) throw new WireError(response.status, parsed.data.error.code, parsed.data.error.message);
    throw new WireError(response.status, 'internal', `Porter answered ${response.status}`);
  }
  if (!options.schema) return json as T;
  const parsed = options.schema.safeParse(json);
  if (!parsed.success)
    throw new WireError(response.status, 'unexpected', `Porter sent an answer this page does not understand (${method} ${path})`);
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A message for people: what went wrong, in a sentence. */
export function describeError(error: unknown): string {
  if (error instanceof WireError) {
    if (error.code === 'not-found') return 'This no longer exists, or it is not yours.';
    if (error.code === 'not-implemented') return error.message;
    return error.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

export const threadMatch = z.object({
  snippet: z.string(),
  highlights: z.array(z.object({ start: z.number(), end: z.number() })),
  messageId: z.string().optional(),
});
export const threadSummary = z.object({
  id: z.string(),
  title: z.string().nullable().optional(),
  updatedAt: z.string(),
  match: threadMatch.optional(),
});
export type ThreadSummary = z.output<typeof threadSummary>;
export const threadPage = z.object({ threads: z.array(threadSummary), nextCursor: z.string().nullable().optional() });

export const approvalState = z.enum(['pending', 'approved', 'denied', 'expired', 'executed']);
export type ApprovalState = z.output<typeof approvalState>;
export const approvalRequest = z.object({
  toolCallId: z.string(),
  tool: z.string(),
  input: z.unknown(),
  risk: z.string(),
  egress: z.boolean().optional(),
  preview: z.string(),
  venue: z.string().optional(),
  threadId: z.string().optional(),
  runId: z.string().optional(),
  automationId: z.string().optional(),
  appliesTo: z.object({ kind: z.string(), automationId: z.string().optional(), name: z.string().optional() }).optional(),
});
export const approvalOutcome = z.object({
  kind: z.string(),
  ok: z.boolean().optional(),
  output: z.unknown().optional(),
  error: z.string().optional(),
  reason: z.string().optional(),
});
export const approvalView = z.object({
  id: z.string(),
  state: approvalState,
  request: approvalRequest.optional(),
  outcome: approvalOutcome.optional(),
});
export type ApprovalView = z.output<typeof approvalView>;
export const approvalPage = z.object({ approvals: z.array(approvalView), nextCursor: z.string().nullable().optional() });

export type Remember = { scope: 'tool' | 'exact'; duration: 'session' | 'standing' };
