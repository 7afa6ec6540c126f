import { z } from 'zod';
import type { UIMessage } from 'ai';
import { threadPage, threadSummary, wire, type ThreadSummary } from './wire.js';

const storedMessage = z.object({
  id: z.string(),
  role: z.enum(['system', 'user', 'assistant']),
  parts: z.array(z.object({ type: z.string() }).passthrough()),
  metadata: z.unknown().optional(),
});
const storedThread = z.object({ id: z.string(), title: z.string().nullable().optional(), messages: z.array(storedMessage) });

export interface StoredThread {
  readonly id: string;
  readonly title: string;
  readonly messages: UIMessage[];
}

/** `GET /threads/:id`: the thread as the server stores it (AI SDK UI messages). */
export async function loadThread(threadId: string, signal?: AbortSignal): Promise<StoredThread> {
  const thread = await wire('GET', `/threads/${encodeURIComponent(threadId)}`, { schema: storedThread, ...(signal ? { signal } : {}) });
  return { id: thread.id, title: thread.title ?? '', messages: thread.messages as unknown as UIMessage[] };
}

export async function listThreads(
  cursor: string | null,
  signal?: AbortSignal,
): Promise<{ threads: ThreadSummary[]; nextCursor: string | null }> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  const page = await wire('GET', `/threads${query}`, { schema: threadPage, ...(signal ? { signal } : {}) });
  return { threads: page.threads, nextCursor: page.nextCursor ?? null };
}

export async function createThread(): Promise<string> {
  const created = await wire('POST', '/threads', { body: {}, schema: z.object({ id: z.string() }) });
  return created.id;
}

export async function renameThread(threadId: string, title: string): Promise<ThreadSummary> {
  return wire('PATCH', `/threads/${encodeURIComponent(threadId)}`, { body: { title }, schema: threadSummary });
}

export async function deleteThread(threadId: string): Promise<void> {
  await wire('DELETE', `/threads/${encodeURIComponent(threadId)}`);
}

export function titleOf(thread: { title?: string | null }): string {
  return thread.title?.trim() || 'New conversation';
}
