/** The host application's own HTTP API, at PORTER_BASE_URL. */
export interface HostApi {
  fetch(path: string, init: RequestInit): Promise<Response>;
}
