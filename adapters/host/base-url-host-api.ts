import type { HostApi } from '../../ports/host-api.js';

/**
 * The host's API at PORTER_BASE_URL. Only same-origin paths are reachable, so credentials meant
 * for the host can never be sent anywhere else.
 */
export class BaseUrlHostApi implements HostApi {
  private readonly base: URL;

  constructor(baseUrl: string) {
    this.base = new URL(baseUrl);
  }

  async fetch(path: string, init: RequestInit): Promise<Response> {
    const url = new URL(path, this.base);
    if (url.origin !== this.base.origin) throw new Error('Host calls stay on PORTER_BASE_URL\'s origin');
    return fetch(url, { ...init, redirect: 'manual' });
  }
}
