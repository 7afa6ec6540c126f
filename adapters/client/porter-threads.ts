import type { UIMessage } from 'ai';
import { resolved, threadUrl, type PorterClientOptions } from './wire-url.js';

/** A non-2xx answer of Porter's wire, read from its error envelope. */
export class PorterWireError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PorterWireError';
  }
}

/** A stored thread: its title and its messages, oldest first, ready for `useChat({ messages })`. */
export interface PorterThread<M extends UIMessage = UIMessage> {
  readonly id: string;
  readonly title: string;
  readonly messages: M[];
}

/** `POST {wire}/threads`: a new, empty thread of the caller's; resolves with its id. */
export async function createPorterThread(options: PorterClientOptions): Promise<string> {
  const created = await call<{ id: string }>(options, 'POST', `${options.wire.replace(/\/+$/, '')}/threads`, {});
  return created.id;
}

/** `GET {wire}/threads/:id`: the thread as stored, e.g. to open a conversation after a reload. */
export async function loadPorterThread<M extends UIMessage = UIMessage>(
  options: PorterClientOptions & { readonly threadId: string },
): Promise<PorterThread<M>> {
  return call<PorterThread<M>>(options, 'GET', threadUrl(options.wire, options.threadId));
}

async function call<T>(options: PorterClientOptions, method: 'GET' | 'POST', url: string, body?: object): Promise<T> {
  const headers = new Headers(await resolved(options.headers));
  headers.set('accept', 'application/json');
  if (body !== undefined) headers.set('content-type', 'application/json');
  const response = await (options.fetch ?? globalThis.fetch)(url, {
    method,
    headers,
    credentials: (await resolved(options.credentials)) ?? 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: a proxy's page, say; reported below by status.
  }
  if (!response.ok) {
    const error = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    throw new PorterWireError(
      response.status,
      typeof error?.code === 'string' ? error.code : 'internal',
      typeof error?.message === 'string' ? error.message : `Porter answered ${response.status}`,
    );
  }
  return json as T;
}
