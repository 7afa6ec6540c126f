import { App, type AppPrimitives, type VersionChange } from '../../domain/apps/app.js';
import type { AppDocument } from '../../domain/apps/app-document.js';
import { AppChangedMeanwhile } from '../../domain/apps/app-errors.js';
import { AtomicityUnavailable, NotFound } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import { everyRecord, type RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { appShape } from './stored-shapes.js';
import { defined } from '../../domain/defined.js';

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

export type LoadedApp = Loaded<'app', App, AppPrimitives>;

/**
 * Apps and their versions in the store. A change of content writes its version, then swaps the
 * app on the revision that was read: of two racing edits one wins and the other is told the app
 * changed meanwhile (its version is taken back). A store without compare-and-swap cannot promise
 * that, so changes fail closed on it.
 */
export class AppBook extends AggregateBook<'app', App, AppPrimitives> {
  constructor(
    apps: RecordSet<AppPrimitives>,
    private readonly versions: RecordSet<VersionPrimitives>,
  ) {
    super(apps, {
      collection: 'apps',
      key: 'app',
      noun: 'App',
      schema: appShape,
      ...asPrimitives(App),
      refsOf: (props) => ({ owner: props.owner, ...defined({ slot: props.pin ? props.pin.slot : undefined }) }),
      ownerOf: (app) => app.toPrimitives().owner,
    });
  }

  /** An app the principal may see: their own, or a shared one when signed in. */
  async visibleTo(principal: Principal, id: string): Promise<LoadedApp> {
    const loaded = await this.find(id);
    if (!loaded || !loaded.app.isVisibleTo(principal.subject, principal.anonymous === true)) throw new NotFound('App');
    return loaded;
  }

  async insert(app: App, change: VersionChange, instruction?: string): Promise<void> {
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('compare-and-swap on apps');
    await this.putVersion(app, change, instruction);
    const props = app.toPrimitives();
    if (!(await atomic.insertIfAbsent({ id: props.id, data: props, refs: this.mapping.refsOf(props) }))) {
      await this.versions.delete(app.version);
      throw new AppChangedMeanwhile(app.id);
    }
  }

  /** A new version of the app's content; throws AppChangedMeanwhile when another change won. */
  async swapContent(from: LoadedApp, to: App, change: VersionChange, instruction?: string): Promise<LoadedApp> {
    if (!this.records.atomic) throw new AtomicityUnavailable('compare-and-swap on apps');
    await this.putVersion(to, change, instruction);
    const swapped = await this.swap(from, to);
    if (swapped) return swapped;
    await this.versions.delete(to.version);
    throw new AppChangedMeanwhile(to.id);
  }

  /** Every version of the app, newest first. */
  async versionsOf(appId: string): Promise<VersionPrimitives[]> {
    return (await everyRecord(this.versions, { app: appId })).map((item) => item.data).sort((a, b) => b.number - a.number);
  }

  /** Removes the app and its versions (its records and blobs are AppData's). */
  async remove(appId: string): Promise<void> {
    for (const version of await this.versionsOf(appId)) await this.versions.delete(version.id);
    await this.records.delete(appId);
  }

  private async putVersion(app: App, change: VersionChange, instruction?: string): Promise<void> {
    const version: VersionPrimitives = {
      id: app.version,
      appId: app.id,
      number: app.versionNumber,
      change,
      contentHash: app.contentHash,
      createdAt: app.updatedAt,
      ...defined({ instruction }),
      document: app.document,
    };
    await this.versions.put({ id: version.id, data: version, refs: { app: app.id } });
  }
}
