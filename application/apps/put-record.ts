import { RECORD_KEY } from '../../domain/apps/app-document.js';
import { InvalidInput, PayloadTooLarge } from '../../domain/errors.js';
import type { Ids } from '../../ports/ids.js';
import type { AppRecordView } from '../../ports/use-cases/apps.js';
import type { AppBook } from './app-book.js';
import type { AppData } from './app-data.js';
import { appRecordView, type RecordsOf } from './app-record-view.js';

/** One record's JSON, at most. */
export const MAX_RECORD_BYTES = 64 * 1024;

/** `PUT /apps/:id/records/:collection/:recordId` (or `POST` to a collection): only the owner writes. */
export class PutRecord {
  constructor(
    private readonly book: AppBook,
    private readonly data: AppData,
    private readonly ids: Ids,
  ) {}

  /** Upserts at the given id, or creates one under a fresh id; only the owner writes. */
  async execute({
    principal,
    appId,
    collection,
    recordId,
    data,
  }: RecordsOf<{ recordId?: string; data: unknown }>): Promise<{ record: AppRecordView; created: boolean }> {
    await this.book.ownedBy(principal.subject, appId);
    if (recordId !== undefined && !RECORD_KEY.test(recordId)) throw new InvalidInput('A record id is 1..128 letters, digits, _ or -');
    const json = JSON.stringify(data ?? null);
    if (Buffer.byteLength(json, 'utf8') > MAX_RECORD_BYTES)
      throw new PayloadTooLarge(`A record holds at most ${MAX_RECORD_BYTES} bytes of JSON`);
    const id = recordId ?? this.ids.mint('record');
    const records = this.data.records(appId);
    const stored = await records.put({ id: `${collection}/${id}`, data: JSON.parse(json) as unknown, refs: { collection } });
    return { record: appRecordView(stored), created: stored.revision === 1 };
  }
}
