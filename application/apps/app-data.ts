import type { Principal } from '../../domain/principal.js';
import type { BlobStore, RecordSet, Store } from '../../ports/store.js';
import type { AppBook } from './app-book.js';

/** What a blob use case is asked: whose request, which app, which blob (and what `T` adds). */
export type BlobOf<T = object> = { principal: Principal; appId: string; key: string } & T;

/**
 * An app's own records and blobs. Each app has its own record set and blob namespace, keyed by
 * its id, so moving an app to another owner moves its data with it and removing the app removes
 * its data.
 */
export class AppData {
  constructor(private readonly store: Store) {}

  records(appId: string): RecordSet<unknown> {
    return this.store.records<unknown>(`app-records:${appId}`);
  }

  blobs(appId: string): BlobStore {
    return this.store.blobs(`app-blobs:${appId}`);
  }

  /** Deletes every record and blob of the app; safe to run again after a partial failure. */
  async removeAll(appId: string): Promise<void> {
    const records = this.records(appId);
    for (;;) {
      const page = await records.list({ limit: 500 });
      if (page.items.length === 0) break;
      for (const item of page.items) await records.delete(item.id);
    }
    const blobs = this.blobs(appId);
    for (const blob of await blobs.list()) await blobs.delete(blob.key);
  }
}

/**
 * The use cases over an app's records and blobs are built alike: the book says who may read them
 * (whoever may see the app) and write them (its owner), the data holds them.
 */
export abstract class AppDataUseCase {
  constructor(
    protected readonly book: AppBook,
    protected readonly data: AppData,
  ) {}
}
