import type { HttpChatTransportInitOptions, UIMessage } from 'ai';

type HttpOptions = HttpChatTransportInitOptions<UIMessage>;

/** How a client reaches Porter's wire. */
export interface PorterClientOptions {
  /** Where Porter is mounted: a path on this origin (`'/api/porter'`) or an absolute URL. */
  readonly wire: string;
  /** Sent with every request: a value, or a function read each time (e.g. a fresh bearer token). */
  readonly headers?: HttpOptions['headers'];
  /** The fetch credentials mode; default `'same-origin'` (the person's cookie on this origin). */
  readonly credentials?: HttpOptions['credentials'];
  /** A fetch of your own (tests, middleware, a server-side caller). */
  readonly fetch?: HttpOptions['fetch'];
}

/** `{wire}/threads/{id}[/{leaf}]`, the id escaped as one path segment. */
export function threadUrl(wire: string, threadId: string, leaf?: string): string {
  return `${wire.replace(/\/+$/, '')}/threads/${encodeURIComponent(threadId)}${leaf ? `/${leaf}` : ''}`;
}

/** A value given as itself, a promise, or a function returning either. */
export async function resolved<T>(value: T | PromiseLike<T> | (() => T | PromiseLike<T>) | undefined): Promise<T | undefined> {
  return typeof value === 'function' ? await (value as () => T | PromiseLike<T>)() : await value;
}
