import type { Blob, BlobInfo, BlobStore } from '../../../ports/store.js';
import type { Clock } from '../../../ports/clock.js';
import type { BlobColumns, BlobStatements } from './blob-statements.js';
import { isoFromMillis } from './iso-time.js';
import { isStorableText, UnstorableText } from '../shared/storable-text.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlRunner } from './sql-runner.js';

/** What every blob namespace of one store shares. */
export interface BlobStoreContext {
  readonly runner: SqlRunner;
  readonly statements: BlobStatements;
  readonly dialect: SqlDialect;
  readonly clock: Clock;
}

/** One blob namespace over porter_blobs. */
export class MikroOrmBlobStore implements BlobStore {
  constructor(
    private readonly namespace: string,
    private readonly context: BlobStoreContext,
  ) {}

  async get(key: string): Promise<Blob | null> {
    if (!isStorableText(key)) return null;
    const [row] = await this.context.runner.rows<BlobColumns>(this.context.statements.get(this.namespace, key));
    if (!row) return null;
    // A Buffer may be a slice of a larger one, so its bytes are copied; an ArrayBuffer is this blob's alone.
    return { ...this.info(row), bytes: new Uint8Array(row.data ?? []) };
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<BlobInfo> {
    if (!isStorableText(key)) throw new UnstorableText('blob key');
    if (!isStorableText(contentType)) throw new UnstorableText("blob's content type");
    const now = this.context.clock.now().getTime();
    await this.context.runner.changes(this.context.statements.put(this.namespace, key, bytes, contentType, now));
    return { key, contentType, size: bytes.byteLength, updatedAt: isoFromMillis(now) };
  }

  async delete(key: string): Promise<boolean> {
    if (!isStorableText(key)) return false;
    return (await this.context.runner.changes(this.context.statements.delete(this.namespace, key))) > 0;
  }

  async list(): Promise<ReadonlyArray<BlobInfo>> {
    const rows = await this.context.runner.rows<BlobColumns>(this.context.statements.list(this.namespace));
    return rows.map((row) => this.info(row));
  }

  private info(row: BlobColumns): BlobInfo {
    return {
      key: row.key,
      contentType: row.content_type,
      size: row.size,
      updatedAt: isoFromMillis(this.context.dialect.readMillis(row.updated_at)),
    };
  }
}
