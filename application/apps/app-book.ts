import { App, type AppPrimitives, type VersionChange } from '../../domain/apps/app.js';
import type { AppDocument } from '../../domain/apps/app-document.js';
import { AppChangedMeanwhile } from '../../domain/apps/app-errors.js';
import { AtomicityUnavailable, NotFound } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import { everyRecord, type RecordSet, type StoredRecord } from '../../ports/store.js';

/** One version of an app's content, kept so `GET /apps/:id/versions` can list every change. */
export interface VersionPrimitives {
  readonly id: string;
  readonly appId: string;
  readonly number: number;
  readonly change: VersionChange;
  readonly contentHash: string;
  readonly createdAt: string;
  readonly instruction?: string;
  readonly document: AppDocument;
}

export interface LoadedApp {
  readonly app: App;
  readonly record: StoredRecord<AppPrimitives>;
}

/**
 * Apps and their versions in the store. A change of content writes its version, then swaps the
 * app on the revision that was read: of two racing edits one wins and the other is told the app
 * changed meanwhile (its version is taken back). A store without compare-and-swap cannot promise
 * that, so changes fail closed on it.
 */
export class AppBook {
  constructor(
    private readonly apps: RecordSet<AppPrimitives>,
    private readonly versions: RecordSet<VersionPrimitives>,
  ) {}

  async find(id: string): Promise<LoadedApp | null> {
    const record = await this.apps.get(id);
    return record ? { app: App.fromPrimitives(record.data), record } : null;
  }

  /** The owner's app, or not-found (someone else's id is never revealed). */
  async ownedBy(subject: string, id: string): Promise<LoadedApp> {
    const loaded = await this.find(id);
    if (!loaded || !loaded.app.isOwnedBy(subject)) throw new NotFound('App');
    return loaded;
  }

  /** An app the principal may see: their own, or a shared one when signed in. */
  async visibleTo(principal: Principal, id: string): Promise<LoadedApp> {
    const loaded = await this.find(id);
    if (!loaded || !loaded.app.isVisibleTo(principal.subject, principal.anonymous === true)) throw new NotFound('App');
    return loaded;
  }

  async insert(app: App, change: VersionChange, instruction?: string): Promise<void> {
    const atomic = this.apps.atomic;
    if (!atomic) throw new AtomicityUnavailable('compare-and-swap on apps');
    await this.putVersion(app, change, instruction);
    const props = app.toPrimitives();
    if (!(await atomic.insertIfAbsent({ id: props.id, data: props, refs: refsOf(props) }))) {
      await this.versions.delete(app.version);
      throw new AppChangedMeanwhile(app.id);
    }
  }

  /** A new version of the app's content; throws AppChangedMeanwhile when another change won. */
  async replace(from: LoadedApp, to: App, change: VersionChange, instruction?: string): Promise<void> {
    const atomic = this.apps.atomic;
    if (!atomic) throw new AtomicityUnavailable('compare-and-swap on apps');
    await this.putVersion(to, change, instruction);
    const props = to.toPrimitives();
    if (!(await atomic.compareAndSwap(from.record.id, from.record.revision, { data: props, refs: refsOf(props) }))) {
      await this.versions.delete(to.version);
      throw new AppChangedMeanwhile(to.id);
    }
  }

  /** A change that is not content (owner, drift): no version. False when another change won. */
  async move(from: LoadedApp, to: App): Promise<boolean> {
    const atomic = this.apps.atomic;
    if (!atomic) throw new AtomicityUnavailable('compare-and-swap on apps');
    const props = to.toPrimitives();
    return (await atomic.compareAndSwap(from.record.id, from.record.revision, { data: props, refs: refsOf(props) })) !== null;
  }

  async list(refs: Record<string, string>, limit = 50, cursor: string | null = null): Promise<{ items: LoadedApp[]; nextCursor: string | null }> {
    const page = await this.apps.list({ refs, limit, cursor });
    return { items: page.items.map((record) => ({ app: App.fromPrimitives(record.data), record })), nextCursor: page.nextCursor };
  }

  /** Every app matching the refs (walks all pages). */
  async all(refs: Record<string, string>): Promise<LoadedApp[]> {
    return (await everyRecord(this.apps, refs)).map((record) => ({ app: App.fromPrimitives(record.data), record }));
  }

  /** Every version of the app, newest first. */
  async versionsOf(appId: string): Promise<VersionPrimitives[]> {
    return (await everyRecord(this.versions, { app: appId })).map((item) => item.data).sort((a, b) => b.number - a.number);
  }

  /** Removes the app and its versions (its records and blobs are AppData's). */
  async remove(appId: string): Promise<void> {
    for (const version of await this.versionsOf(appId)) await this.versions.delete(version.id);
    await this.apps.delete(appId);
  }

  private async putVersion(app: App, change: VersionChange, instruction?: string): Promise<void> {
    const version: VersionPrimitives = {
      id: app.version,
      appId: app.id,
      number: app.versionNumber,
      change,
      contentHash: app.contentHash,
      createdAt: app.updatedAt,
      ...(instruction !== undefined ? { instruction } : {}),
      document: app.document,
    };
    await this.versions.put({ id: version.id, data: version, refs: { app: app.id } });
  }
}

function refsOf(props: AppPrimitives): Record<string, string> {
  return { owner: props.owner, ...(props.pin ? { slot: props.pin.slot } : {}) };
}
