import type { HostApi } from '../../ports/host-api.js';

/** How long a call to the host may take before it is given up. */
export const HOST_CALL_TIMEOUT_MS = 30_000;

/**
 * The host's API at PORTER_BASE_URL. A path is taken under the base URL's own path (a host served
 * at `https://example.com/app` is called at `https://example.com/app/<path>`), and only that origin
 * is reachable, so credentials meant for the host can never be sent anywhere else. A call that
 * takes longer than `timeoutMs` is aborted.
 */
export class BaseUrlHostApi implements HostApi {
  readonly forwardsCredentials = true;
  private readonly base: URL;

  constructor(
    baseUrl: string,
    private readonly timeoutMs = HOST_CALL_TIMEOUT_MS,
  ) {
    this.base = new URL(baseUrl);
  }

  async fetch(path: string, init: RequestInit): Promise<Response> {
    const url = this.resolve(path);
    if (url.origin !== this.base.origin) throw new Error("Host calls stay on PORTER_BASE_URL's origin");
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(url, { ...init, signal, redirect: 'manual' });
  }

  private resolve(path: string): URL {
    if (!path.startsWith('/') || path.startsWith('//')) return new URL(path, this.base);
    const prefix = this.base.pathname.replace(/\/+$/, '');
    return new URL(`${prefix}${path}`, this.base.origin);
  }
}
