import { resolved, type PorterClientOptions } from './wire-url.js';

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

/**
 * One call of the wire with the client's headers and credentials: JSON in (state changes always go
 * as `application/json`, which the CSRF floor asks of a cookie-carrying browser), JSON or text
 * out, an error envelope thrown as PorterWireError.
 */
export async function callWire<T = unknown>(
  options: PorterClientOptions,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<T> {
  const headers = new Headers(await resolved(options.headers));
  headers.set('accept', 'application/json');
  const changes = method !== 'GET';
  if (changes) headers.set('content-type', 'application/json');
  const response = await (options.fetch ?? globalThis.fetch)(url, {
    method,
    headers,
    credentials: (await resolved(options.credentials)) ?? 'same-origin',
    ...(changes ? { body: JSON.stringify(body ?? null) } : {}),
  });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: a function's own answer, or a proxy's page (reported below by status).
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
