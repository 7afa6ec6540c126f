import { z } from 'zod';
import type { SandboxFile, SandboxSession } from '../../../ports/sandbox.js';
import { checkedRequestPath, relativeAppPath } from '../app-paths.js';
import { sandboxSchema, snapshotSchema, statusSchema, type CloudClient } from './cloud-client.js';
import { defined } from '../../../domain/defined.js';

/** One app's sandbox in the cloud service; every call is one request of docs/sandbox-cloud-api.md. */
export class CloudSandboxSession implements SandboxSession {
  constructor(
    readonly id: string,
    private readonly client: CloudClient,
    private readonly startTimeoutMs: number,
    private readonly onClose: () => void,
  ) {}

  private get path(): string {
    return `/v1/sandboxes/${encodeURIComponent(this.id)}`;
  }

  async writeFiles(files: ReadonlyArray<SandboxFile>): Promise<void> {
    for (const file of files) relativeAppPath(file.path);
    const body = {
      files: files.map((file) => ({
        path: file.path,
        content: Buffer.from(file.content).toString('base64'),
        ...defined({ mode: file.mode !== undefined ? file.mode & 0o777 : undefined }),
      })),
    };
    await this.client.empty('PUT', `${this.path}/files`, body);
  }

  async start(): Promise<void> {
    // The service holds the request open until the server listens; allow it the start time and some.
    await this.client.json('POST', `${this.path}/start`, { timeoutMs: this.startTimeoutMs }, sandboxSchema, this.startTimeoutMs + 15_000);
  }

  async isListening(): Promise<boolean> {
    return (await this.client.json('GET', this.path, undefined, statusSchema).catch(() => null))?.listening ?? false;
  }

  async snapshot(): Promise<string> {
    return (await this.client.json('POST', `${this.path}/snapshots`, {}, snapshotSchema)).id;
  }

  async restore(snapshotId: string): Promise<void> {
    const id = z
      .string()
      .regex(/^[\w-]{1,200}$/)
      .safeParse(snapshotId);
    const segment = encodeURIComponent(id.success ? id.data : 'invalid');
    await this.client.json(
      'POST',
      `${this.path}/snapshots/${segment}/restore`,
      { timeoutMs: this.startTimeoutMs },
      sandboxSchema,
      this.startTimeoutMs + 15_000,
    );
  }

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return this.client.proxy(this.id, checkedRequestPath(path), init);
  }

  async close(): Promise<void> {
    await this.client.json('POST', `${this.path}/stop`, {}, sandboxSchema);
    this.onClose();
  }

  /** `DELETE /v1/sandboxes/{id}`: the service stops the server and removes the files and snapshots. */
  async discard(): Promise<void> {
    await this.client.empty('DELETE', this.path, undefined);
    this.onClose();
  }
}
