import { RECORD_KEY } from '../../domain/apps/app-document.js';
import { InvalidInput, NotFound, PayloadTooLarge } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { Ids } from '../../ports/ids.js';
import type { StoredRecord } from '../../ports/store.js';
import type { AppRecordView } from '../../ports/use-cases/apps.js';
import type { AppBook, LoadedApp } from './app-book.js';
import type { AppData } from './app-data.js';

/** One record's JSON, at most. */
export const MAX_RECORD_BYTES = 64 * 1024;

type Of<T = object> = { principal: Principal; appId: string; collection: string } & T;

/**
 * An app's records, by collection. Anyone who may see the app may read them (the owner; anyone
 * signed in for a shared app); only the owner changes them. Stored ids are `<collection>/<id>`.
 */
abstract class RecordsCase {
  constructor(
    protected readonly book: AppBook,
    protected readonly data: AppData,
  ) {}

  protected async readable(principal: Principal, appId: string): Promise<LoadedApp> {
    return this.book.visibleTo(principal, appId);
  }

  protected async writable(principal: Principal, appId: string): Promise<LoadedApp> {
    return this.book.ownedBy(principal.subject, appId);
  }
}

export class ListRecords extends RecordsCase {
  async execute({ principal, appId, collection, limit, cursor }: Of<{ limit?: number; cursor?: string | null }>) {
    await this.readable(principal, appId);
    const page = await this.data.records(appId).list({ refs: { collection }, limit: limit ?? 50, cursor: cursor ?? null });
    return { records: page.items.map(viewOf), nextCursor: page.nextCursor };
  }
}

export class GetRecord extends RecordsCase {
  async execute({ principal, appId, collection, recordId }: Of<{ recordId: string }>): Promise<AppRecordView> {
    await this.readable(principal, appId);
    const record = await this.data.records(appId).get(`${collection}/${recordId}`);
    if (!record) throw new NotFound('Record');
    return viewOf(record);
  }
}

export class PutRecord extends RecordsCase {
  constructor(
    book: AppBook,
    data: AppData,
    private readonly ids: Ids,
  ) {
    super(book, data);
  }

  /** Upserts at the given id, or creates one under a fresh id. */
  async execute({
    principal,
    appId,
    collection,
    recordId,
    data,
  }: Of<{ recordId?: string; data: unknown }>): Promise<{ record: AppRecordView; created: boolean }> {
    await this.writable(principal, appId);
    if (recordId !== undefined && !RECORD_KEY.test(recordId)) throw new InvalidInput('A record id is 1..128 letters, digits, _ or -');
    const json = JSON.stringify(data ?? null);
    if (Buffer.byteLength(json, 'utf8') > MAX_RECORD_BYTES)
      throw new PayloadTooLarge(`A record holds at most ${MAX_RECORD_BYTES} bytes of JSON`);
    const id = recordId ?? this.ids.mint('record');
    const records = this.data.records(appId);
    const stored = await records.put({ id: `${collection}/${id}`, data: JSON.parse(json) as unknown, refs: { collection } });
    return { record: viewOf(stored), created: stored.revision === 1 };
  }
}

export class DeleteRecords extends RecordsCase {
  /** One record, or the whole collection when no id is given. */
  async execute({ principal, appId, collection, recordId }: Of<{ recordId?: string }>): Promise<{ deleted: number }> {
    await this.writable(principal, appId);
    const records = this.data.records(appId);
    if (recordId !== undefined) {
      if (!(await records.delete(`${collection}/${recordId}`))) throw new NotFound('Record');
      return { deleted: 1 };
    }
    let deleted = 0;
    for (;;) {
      const page = await records.list({ refs: { collection }, limit: 500 });
      if (page.items.length === 0) return { deleted };
      for (const item of page.items) if (await records.delete(item.id)) deleted += 1;
    }
  }
}

function viewOf(record: StoredRecord<unknown>): AppRecordView {
  const slash = record.id.indexOf('/');
  return {
    id: record.id.slice(slash + 1),
    collection: record.id.slice(0, slash),
    data: record.data,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
