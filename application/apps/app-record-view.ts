import type { Principal } from '../../domain/principal.js';
import type { StoredRecord } from '../../ports/store.js';
import type { AppRecordView } from '../../ports/use-cases/apps.js';

/**
 * An app's records, by collection. Anyone who may see the app may read them (the owner; anyone
 * signed in for a shared app); only the owner changes them. Stored ids are `<collection>/<id>`.
 */
export type RecordsOf<T = object> = { principal: Principal; appId: string; collection: string } & T;

/** A stored record as the app sees it: its own id and collection, split from the stored id. */
export function appRecordView(record: StoredRecord<unknown>): AppRecordView {
  const slash = record.id.indexOf('/');
  return {
    id: record.id.slice(slash + 1),
    collection: record.id.slice(0, slash),
    data: record.data,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
