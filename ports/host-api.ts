/** The host application's own HTTP API, at PORTER_BASE_URL. */
export interface HostApi {
  /** Whether a present person's own credentials go to it: false only for the null host API (no PORTER_BASE_URL). */
  readonly forwardsCredentials: boolean;
  fetch(path: string, init: RequestInit): Promise<Response>;
}
