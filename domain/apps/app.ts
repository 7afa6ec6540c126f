import { aggregateOf } from '../aggregate.js';
import { fnRefs, nodeCount, type AppDocument } from './app-document.js';
import { ForkPin, type ForkPinPrimitives, type PinDrift } from './fork-pin.js';

/** Why a version was made. */
export type VersionChange = 'create' | 'edit' | 'import' | 'seed' | 'rebase' | 'graduate';

/** The served rung: the sandbox snapshot that is serving now. */
export interface ServedPrimitives {
  readonly snapshotId: string;
  readonly servedAt: string;
}

export interface AppPrimitives {
  readonly id: string;
  readonly owner: string;
  readonly document: AppDocument;
  /** The current version (`ver_`) and how many there have been. */
  readonly version: string;
  readonly versionNumber: number;
  readonly contentHash: string;
  readonly pin: ForkPinPrimitives | null;
  readonly served: ServedPrimitives | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A new version's identity, minted by the caller. */
export interface NextVersion {
  readonly version: string;
  readonly contentHash: string;
  readonly at: string;
}

/** A generated app. Every change of content is a new version; changes return a new App. */
export class App extends aggregateOf<AppPrimitives>().reading(
  'id',
  'owner',
  'document',
  'version',
  'versionNumber',
  'contentHash',
  'served',
  'createdAt',
  'updatedAt',
) {
  private constructor(props: AppPrimitives) {
    super(props);
  }

  static create(input: { id: string; owner: string; document: AppDocument; pin?: ForkPin | null } & NextVersion): App {
    return new App({
      id: input.id,
      owner: input.owner,
      document: input.document,
      version: input.version,
      versionNumber: 1,
      contentHash: input.contentHash,
      pin: input.pin?.toPrimitives() ?? null,
      served: null,
      createdAt: input.at,
      updatedAt: input.at,
    });
  }

  static fromPrimitives(props: AppPrimitives): App {
    return new App(props);
  }

  get pin(): ForkPin | null {
    return this.props.pin ? ForkPin.fromPrimitives(this.props.pin) : null;
  }

  isOwnedBy(subject: string): boolean {
    return this.props.owner === subject;
  }

  /** The owner always; anyone signed in when the app is shared. */
  isVisibleTo(subject: string, anonymous: boolean): boolean {
    return this.isOwnedBy(subject) || (this.props.document.scope === 'shared' && !anonymous);
  }

  fnRefs(): string[] {
    return fnRefs(this.props.document);
  }

  nodeCount(): number {
    return nodeCount(this.props.document);
  }

  /** Drift of the app's fork, if it is a drifted fork. */
  pinDrift(): PinDrift | null {
    return this.pin?.drift() ?? null;
  }

  /** New content from an edit; a fork records the instruction for a later rebase. */
  edited(document: AppDocument, instruction: string, next: NextVersion, served: ServedPrimitives | null = this.props.served): App {
    const pin = this.pin?.recordEdit(instruction) ?? null;
    return this.revised(document, next, { pin: pin?.toPrimitives() ?? null, served });
  }

  /** Every graduation step succeeded: the app is served from this snapshot. */
  graduated(next: NextVersion, snapshotId: string): App {
    return this.revised({ ...this.props.document, ui: 'http' }, next, { served: { snapshotId, servedAt: next.at } });
  }

  /** The fork re-made from a new baseline with its trail replayed: one new version. */
  rebased(document: AppDocument, baselineHash: string, next: NextVersion, served: ServedPrimitives | null = this.props.served): App {
    const pin = this.pin?.rebasedOn(baselineHash) ?? null;
    return this.revised(document, next, { pin: pin?.toPrimitives() ?? null, served });
  }

  /** The sync's verdict for this fork; null when nothing changes. */
  synced(componentHash: string, at: string): App | null {
    const pin = this.pin?.synced(componentHash);
    return pin ? this.with({ pin: pin.toPrimitives(), updatedAt: at }) : null;
  }

  movedTo(owner: string): App {
    return this.with({ owner });
  }

  /** A new version never changes who may read the app: that was settled when it was made. */
  private revised(document: AppDocument, next: NextVersion, changes: Partial<AppPrimitives>): App {
    if (document.scope !== this.props.document.scope) throw new Error('a new version of an app cannot change its scope');
    return this.with({
      ...changes,
      document,
      version: next.version,
      versionNumber: this.props.versionNumber + 1,
      contentHash: next.contentHash,
      updatedAt: next.at,
    });
  }
}
