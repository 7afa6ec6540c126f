import type { HostApi } from '../../ports/host-api.js';
import type { Telemetry } from '../../ports/telemetry.js';

/**
 * The host's API with the active trace carried along: every call (present, with the person's own
 * credentials, or acting as them) gets `traceparent`, so the host's spans join the turn's trace.
 */
export class PropagatingHostApi implements HostApi {
  constructor(
    private readonly host: HostApi,
    private readonly telemetry: Telemetry,
  ) {}

  get forwardsCredentials(): boolean {
    return this.host.forwardsCredentials;
  }

  fetch(path: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    this.telemetry.inject(headers);
    return this.host.fetch(path, { ...init, headers });
  }
}
