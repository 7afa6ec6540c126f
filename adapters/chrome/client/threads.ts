import { deleteWithUndo } from './undo.js';
import { z } from 'zod';
import type { UIMessage } from 'ai';
import { threadPage, threadSummary, wire, type ThreadSummary } from './wire.js';
import type { ShownVersion } from './version-switcher.js';
import { defined } from '../../../domain/defined.js';

const storedMessage = z.object({
  id: z.string(),
  role: z.enum(['system', 'user', 'assistant']),
  parts: z.array(z.object({ type: z.string() }).passthrough()),
  metadata: z.unknown().optional(),
});
const messageVersions = z.object({ messageId: z.string(), index: z.number().int(), count: z.number().int() });
const storedThread = z.object({
  id: z.string(),
  title: z.string().nullable().optional(),
  messages: z.array(storedMessage),
  versions: z.array(messageVersions).optional(),
});

export interface StoredThread {
  readonly id: string;
  readonly title: string;
  readonly messages: UIMessage[];
  /** The shown messages that have other versions, by id. */
  readonly versions: ReadonlyMap<string, ShownVersion>;
}

/** `GET /threads/:id`: the thread as the server stores it (AI SDK UI messages). */
export async function loadThread(threadId: string, signal?: AbortSignal): Promise<StoredThread> {
  const thread = await wire('GET', `/threads/${encodeURIComponent(threadId)}`, { schema: storedThread, ...defined({ signal }) });
  return storedOf(thread);
}

/** Shows another version of a message; answers the thread as it now shows. */
export async function showVersion(threadId: string, messageId: string, index: number): Promise<StoredThread> {
  const path = `/threads/${encodeURIComponent(threadId)}/messages/${encodeURIComponent(messageId)}/versions`;
  return storedOf(await wire('POST', path, { body: { index }, schema: storedThread }));
}

function storedOf(thread: z.output<typeof storedThread>): StoredThread {
  return {
    id: thread.id,
    title: thread.title ?? '',
    messages: thread.messages as unknown as UIMessage[],
    versions: new Map((thread.versions ?? []).map(({ messageId, index, count }) => [messageId, { index, count }])),
  };
}

export async function listThreads(
  cursor: string | null,
  signal?: AbortSignal,
): Promise<{ threads: ThreadSummary[]; nextCursor: string | null }> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  const page = await wire('GET', `/threads${query}`, { schema: threadPage, ...defined({ signal }) });
  return { threads: page.threads, nextCursor: page.nextCursor ?? null };
}

export async function createThread(): Promise<string> {
  const created = await wire('POST', '/threads', { body: {}, schema: z.object({ id: z.string() }) });
  return created.id;
}

export async function renameThread(threadId: string, title: string): Promise<ThreadSummary> {
  return wire('PATCH', `/threads/${encodeURIComponent(threadId)}`, { body: { title }, schema: threadSummary });
}

/** Deletes with a way back (the undo toast shows it). */
export async function deleteThread(threadId: string): Promise<void> {
  await deleteWithUndo('thread', threadId);
}

export function titleOf(thread: { title?: string | null }): string {
  return thread.title?.trim() || 'New conversation';
}
