import { PendingDeletion, type DeletableKind, type PendingDeletionPrimitives } from '../../domain/deletions/pending-deletion.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { pendingDeletionShape } from './stored-shapes.js';
import type { HeldDeletions } from './deletable.js';

export type LoadedPendingDeletion = Loaded<'deletion', PendingDeletion, PendingDeletionPrimitives>;

/**
 * Deletions waiting out their undo window, one per thing, in the store every instance shares: a
 * reload, a restart or another instance sees the same ones, and of an undo and a purge racing for
 * one only the first to swap its revision goes ahead.
 */
export class PendingDeletionBook extends AggregateBook<'deletion', PendingDeletion, PendingDeletionPrimitives> implements HeldDeletions {
  constructor(records: RecordSet<PendingDeletionPrimitives>) {
    super(records, {
      collection: 'pending-deletions',
      key: 'deletion',
      noun: 'Pending deletion',
      schema: pendingDeletionShape,
      ...asPrimitives(PendingDeletion),
      refsOf: (props) => ({ owner: props.owner, kind: props.kind }),
      ownerOf: (deletion) => deletion.owner,
    });
  }

  /** Records the deletion unless one is already pending for the thing: the one pending answers. */
  async hold(deletion: PendingDeletion): Promise<PendingDeletion> {
    const props = deletion.toPrimitives();
    const atomic = this.records.atomic;
    if (!atomic) {
      await this.save(deletion);
      return deletion;
    }
    const inserted = await atomic.insertIfAbsent({ id: props.id, data: props, refs: this.mapping.refsOf(props) });
    if (inserted) return deletion;
    return (await this.find(props.id))?.deletion ?? deletion;
  }

  /** The owner's pending deletions, of one kind or all. */
  async of(owner: string, kind?: DeletableKind): Promise<PendingDeletion[]> {
    return (await this.all(kind ? { owner, kind } : { owner })).map((loaded) => loaded.deletion);
  }

  /** The ids of the owner's things of `kind` waiting to go: lists leave them out. */
  async heldIds(owner: string, kind: DeletableKind): Promise<ReadonlySet<string>> {
    return new Set((await this.of(owner, kind)).map((deletion) => deletion.id));
  }

  /** Whether the thing is waiting to go (out of use meanwhile). */
  async holds(id: string): Promise<boolean> {
    return (await this.find(id)) !== null;
  }

  async everyHeld(kind: DeletableKind): Promise<ReadonlySet<string>> {
    return new Set((await this.all({ kind })).map((loaded) => loaded.deletion.id));
  }

  /** Every pending deletion of every owner: for the sweep. */
  async everyPending(): Promise<LoadedPendingDeletion[]> {
    return this.all({});
  }

  /** Takes the record away for the single caller whose read still matches (undo or a finished purge). */
  async consume(loaded: LoadedPendingDeletion): Promise<boolean> {
    return this.consumeRecord(loaded);
  }
}
