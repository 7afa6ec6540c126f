import type { UIMessage } from 'ai';
import { threadUrl, type PorterClientOptions } from './wire-url.js';
import { callWire as call } from './wire-call.js';

export { PorterWireError } from './wire-call.js';

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
