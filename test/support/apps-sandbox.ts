import type { EgressPolicy, Sandbox, SandboxFile, SandboxSession } from '../../ports/sandbox.js';

/** What a test tells the double to do at each step. */
export interface SandboxScript {
  failOn?: 'open' | 'writeFiles' | 'start' | 'snapshot' | 'restore' | 'discard' | null;
  /** What isListening() answers after a start (default true). */
  listensAfterStart?: boolean;
  /** Answers `POST /fn/<name>` while listening. */
  fn?: (name: string, input: unknown) => { status: number; body: unknown };
}

/**
 * A Sandbox double that keeps files and snapshots in memory and records every step, so
 * graduation and served edits can be tested step by step without a process. The files a snapshot
 * captured are what `restore` puts back, and what is "serving" after it.
 */
export class RecordingSandbox implements Sandbox {
  readonly kind = 'custom' as const;
  readonly steps: string[] = [];
  readonly sessions = new Map<string, RecordingSession>();
  script: SandboxScript = {};

  async open(appId: string, options: { readonly egress: EgressPolicy | null }): Promise<SandboxSession> {
    this.steps.push(`open ${appId}`);
    if (this.script.failOn === 'open') throw new Error('the sandbox could not be opened');
    let session = this.sessions.get(appId);
    if (!session) this.sessions.set(appId, (session = new RecordingSession(appId, this)));
    session.egress = options.egress;
    return session;
  }

  async closeAll(): Promise<void> {
    for (const session of this.sessions.values()) await session.close();
  }
}

export class RecordingSession implements SandboxSession {
  files = new Map<string, string>();
  /** The files of the server that is answering now, or null when none is. */
  serving: Map<string, string> | null = null;
  listening = false;
  egress: EgressPolicy | null = null;
  closed = false;
  discarded = false;
  private readonly snapshots = new Map<string, Map<string, string>>();

  constructor(
    readonly id: string,
    private readonly sandbox: RecordingSandbox,
  ) {}

  async writeFiles(files: ReadonlyArray<SandboxFile>): Promise<void> {
    this.step('writeFiles');
    for (const file of files)
      this.files.set(file.path, typeof file.content === 'string' ? file.content : new TextDecoder().decode(file.content));
  }

  async start(): Promise<void> {
    this.step('start');
    this.listening = this.sandbox.script.listensAfterStart ?? true;
    this.serving = this.listening ? new Map(this.files) : null;
  }

  async isListening(): Promise<boolean> {
    this.sandbox.steps.push(`isListening ${this.id}`);
    return this.listening;
  }

  async snapshot(): Promise<string> {
    this.step('snapshot');
    const id = `snap_${this.snapshots.size + 1}`;
    this.snapshots.set(id, new Map(this.files));
    return id;
  }

  async restore(snapshotId: string): Promise<void> {
    this.step(`restore ${snapshotId}`);
    const files = this.snapshots.get(snapshotId);
    if (!files) throw new Error(`no snapshot ${snapshotId}`);
    this.files = new Map(files);
    this.serving = new Map(files);
    this.listening = true;
  }

  async fetch(path: string, init?: RequestInit): Promise<Response> {
    this.sandbox.steps.push(`fetch ${path}`);
    if (!this.listening) throw new Error('connection refused');
    const match = /^\/fn\/(.+)$/.exec(path);
    const answer =
      match && this.sandbox.script.fn
        ? this.sandbox.script.fn(decodeURIComponent(match[1]!), JSON.parse(String(init?.body ?? 'null')))
        : { status: 404, body: { error: 'not found' } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  }

  async close(): Promise<void> {
    this.sandbox.steps.push(`close ${this.id}`);
    this.closed = true;
    this.listening = false;
    this.serving = null;
  }

  /** Everything goes: files, snapshots, the server; the next open of the app starts from nothing. */
  async discard(): Promise<void> {
    this.step('discard');
    this.files.clear();
    this.snapshots.clear();
    this.closed = true;
    this.discarded = true;
    this.listening = false;
    this.serving = null;
    this.sandbox.sessions.delete(this.id);
  }

  /** The app.json the serving server reads. */
  servedDocument(): { title: string; ui: string } | null {
    const json = this.serving?.get('/app/app.json');
    return json ? (JSON.parse(json) as { title: string; ui: string }) : null;
  }

  private step(name: string): void {
    this.sandbox.steps.push(`${name.split(' ')[0]} ${this.id}`);
    if (this.sandbox.script.failOn === name.split(' ')[0]) throw new Error(`${name} failed`);
  }
}
