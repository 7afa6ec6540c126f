import { NotImplemented } from '../../domain/errors.js';
import type { HostApi } from '../../ports/host-api.js';

/**
 * The host API of a deployment without PORTER_BASE_URL (the null object): a tool that calls the
 * host answers NotImplemented, and a present person's credentials are not forwarded anywhere.
 */
export class NoHostApi implements HostApi {
  readonly forwardsCredentials = false;

  async fetch(): Promise<Response> {
    throw new NotImplemented('PORTER_BASE_URL is not set, so Porter cannot call the host');
  }
}
