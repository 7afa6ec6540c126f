/**
 * The Sandbox port: where a graduated app's own HTTP server runs, isolated from the host.
 * Adapters: a local child process (status `custom`), e2b, and a cloud sandbox over HTTP.
 */

export interface SandboxFile {
  /** Absolute path inside the sandbox, under `/app` (e.g. `/app/server.js`). */
  readonly path: string;
  readonly content: string | Uint8Array;
  /** POSIX mode, e.g. 0o755 for `/app/start.sh`. */
  readonly mode?: number;
}

/**
 * An app's egress policy. With one, requests to raw IP addresses are blocked and only the listed
 * domains (and their subdomains) are reachable; without one, egress is unrestricted.
 */
export interface EgressPolicy {
  readonly allowDomains: ReadonlyArray<string>;
}

export interface SandboxSession {
  /** Stable for the app: reopening the app's sandbox reaches the same one. */
  readonly id: string;
  /** Writes files under /app (creating directories), replacing what was there at those paths. */
  writeFiles(files: ReadonlyArray<SandboxFile>): Promise<void>;
  /**
   * (Re)starts the app server from the current files: `/app/start.sh` if present, else
   * `node /app/server.js`, with `PORT` set. Resolves once it listens on `$PORT`; rejects if it exits
   * or does not listen in time. A server already running keeps serving until the new one listens,
   * and keeps serving when the new one fails (where the adapter can run two; the local one does).
   */
  start(): Promise<void>;
  /** Whether the app server answers on `$PORT` right now. */
  isListening(): Promise<boolean>;
  /** Captures the current files (and, where the adapter can, the process state); returns its id. */
  snapshot(): Promise<string>;
  /**
   * Puts a snapshot back and restarts the server from it: the previous rung serving again. A server
   * already serving exactly that snapshot's files is left running.
   */
  restore(snapshotId: string): Promise<void>;
  /**
   * `restore`, for a server found down, unless a server answers by the time it runs: a change that
   * rolled the app forward while this waited its turn keeps serving, never replaced by the older
   * snapshot the caller read. Adapters that omit it are restored outright.
   */
  revive?(snapshotId: string): Promise<void>;
  /** A request to the app's own server (e.g. `POST /fn/<name>`), answered by it. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Stops the server and releases the sandbox; its files and snapshots stay for the next open. */
  close(): Promise<void>;
  /**
   * Stops the server and removes everything the sandbox holds, for good: its files and every
   * snapshot it took. Reopening the app afterwards starts from nothing, and none of its snapshot
   * ids can be restored. For an app that is being deleted.
   */
  discard(): Promise<void>;
  /**
   * Why the server is not running, when the adapter stopped it for crossing one of its limits (and
   * will not start it again before `retryAt`); null otherwise. Adapters without limits omit it.
   */
  stopped?(): SandboxStop | null;
}

/** The resources an adapter may hold an app to. */
export type SandboxLimit = 'processes' | 'memory' | 'cpu' | 'disk';

/** An app server stopped because it crossed a limit. */
export interface SandboxStop {
  readonly limit: SandboxLimit;
  /** For its owner: what it crossed, e.g. "it used more than its 512 MiB of memory". */
  readonly message: string;
  /** When it stopped, and when a request may start it again (ISO 8601). */
  readonly at: string;
  readonly retryAt: string;
}

export interface SandboxOpenOptions {
  readonly egress: EgressPolicy | null;
  readonly owner?: string;
}

export interface Sandbox {
  /** `none`: the null sandbox of a deployment without one (adapters/sandbox/no-sandbox.ts). */
  readonly kind: 'e2b' | 'cloud' | 'custom' | 'none';
  /**
   * Opens (creating on first use) the sandbox of an app. `owner` (the app owner's subject, when the
   * caller knows it) lets an adapter hold each person to a share of its servers.
   */
  open(appId: string, options: SandboxOpenOptions): Promise<SandboxSession>;
  /** Stops every session this adapter opened (at shutdown). */
  closeAll(): Promise<void>;
}
