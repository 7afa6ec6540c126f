/**
 * The e2b adapter's settings, apart from the adapter so that Porter's public options can reuse
 * them without their declarations reaching the optional `e2b` package's types.
 */
export interface E2bSandboxOptions {
  /** Default: the SDK reads `E2B_API_KEY`. */
  readonly apiKey?: string;
  /** The template sandboxes start from; it must have Node. Default `base`. */
  readonly template?: string;
  /** Self-hosted e2b (or a local server speaking its protocol): the API, the sandbox domain, one URL for sandbox traffic. */
  readonly domain?: string;
  readonly apiUrl?: string;
  readonly sandboxUrl?: string;
  /** The app server's port inside its sandbox. Default 3000. */
  readonly port?: number;
  /** How long a sandbox runs without being reopened before e2b pauses it (it resumes on traffic). Default 1 h; Porter's options take 60000 ms or more. */
  readonly timeoutMs?: number;
  /** How long a server may take to listen. Default 30 s. */
  readonly startTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
}
