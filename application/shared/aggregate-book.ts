import type { z } from 'zod';
import { AtomicityUnavailable, NotFound } from '../../domain/errors.js';
import { everyRecord, type RecordSet, type StoredRecord } from '../../ports/store.js';
import { LOST_RACE, retryOnConflict } from './retry-on-conflict.js';
import { StoredShapeInvalid } from './stored-shape-invalid.js';

/**
 * An aggregate as it was read, beside the stored record whose revision a swap is checked against.
 * The aggregate is named by its family: `loaded.approval`, `loaded.run`, `loaded.thread`.
 */
export type Loaded<K extends string, A, P> = { readonly [key in K]: A } & { readonly record: StoredRecord<P> };

/** How one family's aggregate lives in its RecordSet. */
export interface AggregateMapping<K extends string, A, P> {
  /** The collection's name, for the error a drifted record raises. */
  readonly collection: string;
  /** The field a loaded value carries the aggregate in. */
  readonly key: K;
  /** What a NotFound names ("Approval"). */
  readonly noun: string;
  /** The stored shape: every record read is checked against it before it becomes an aggregate. */
  readonly schema: z.ZodType;
  fromPrimitives(props: P): A;
  toPrimitives(aggregate: A): P;
  /** The refs lists filter on, written with every save and swap. */
  refsOf(props: P): Record<string, string>;
  /** Whose it is, for ownedBy; null for an aggregate no person owns. */
  ownerOf(aggregate: A): string | null;
}

/**
 * How most families turn to and from their primitives: the class's static `fromPrimitives` and
 * the aggregate's own `toPrimitives()`. A family stored otherwise writes both out itself.
 */
export function asPrimitives<A extends { toPrimitives(): P }, P>(family: {
  fromPrimitives(props: P): A;
}): Pick<AggregateMapping<string, A, P>, 'fromPrimitives' | 'toPrimitives'> {
  return { fromPrimitives: (props) => family.fromPrimitives(props), toPrimitives: (aggregate) => aggregate.toPrimitives() };
}

export interface LoadedPage<L> {
  readonly items: L[];
  readonly nextCursor: string | null;
}

/**
 * The one book contract. Every family's book is this plus its few queries named in the domain's
 * words: `find`, `ownedBy` (NotFound, never Forbidden, for someone else's), `list`, `all`, `save`,
 * and `swap`, the compare-and-swap on the revision that was read which answers the new loaded
 * value, or null when another writer moved first. A store without compare-and-swap cannot promise
 * one winner, so a swap fails closed on it (AtomicityUnavailable).
 */
export class AggregateBook<K extends string, A, P extends { readonly id: string }> {
  constructor(
    protected readonly records: RecordSet<P>,
    protected readonly mapping: AggregateMapping<K, A, P>,
  ) {}

  async find(id: string): Promise<Loaded<K, A, P> | null> {
    const record = await this.records.get(id);
    return record ? this.loaded(record) : null;
  }

  /** The owner's aggregate, or not-found: someone else's id is never revealed. */
  async ownedBy(owner: string, id: string): Promise<Loaded<K, A, P>> {
    const loaded = await this.find(id);
    if (!loaded || this.mapping.ownerOf(this.aggregateOf(loaded)) !== owner) throw new NotFound(this.mapping.noun);
    return loaded;
  }

  /** One page of the aggregates matching every ref, newest first. */
  async list(refs: Record<string, string>, limit = 50, cursor: string | null = null): Promise<LoadedPage<Loaded<K, A, P>>> {
    const page = await this.records.list({ refs, limit, cursor });
    return { items: page.items.map((record) => this.loaded(record)), nextCursor: page.nextCursor };
  }

  /** Every aggregate matching the refs (walks all pages): for sweeps and adoption, never a page a person asked for. */
  async all(refs: Record<string, string>): Promise<Loaded<K, A, P>[]> {
    return (await everyRecord(this.records, refs)).map((record) => this.loaded(record));
  }

  /** Inserts or overwrites (last writer wins): for a new aggregate, or one only its creator writes. */
  async save(aggregate: A): Promise<void> {
    const props = this.mapping.toPrimitives(aggregate);
    await this.records.put({ id: props.id, data: props, refs: this.mapping.refsOf(props) });
  }

  /** `next` in place of what was read: the new loaded value, or null when someone else moved first. */
  async swap(loaded: Loaded<K, A, P>, next: A): Promise<Loaded<K, A, P> | null> {
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable(`compare-and-swap on ${this.mapping.collection}`);
    const props = this.mapping.toPrimitives(next);
    const record = await atomic.compareAndSwap(loaded.record.id, loaded.record.revision, { data: props, refs: this.mapping.refsOf(props) });
    return record ? this.loadedOf(next, record) : null;
  }

  /**
   * Applies `change` to the current revision, retrying on a lost race; null when the aggregate is
   * gone or `change` declines (returns null). Answers it unchanged when `change` changes nothing.
   */
  async update(id: string, change: (aggregate: A) => A | null): Promise<A | null> {
    return retryOnConflict(
      async () => {
        const loaded = await this.find(id);
        if (!loaded) return null;
        const current = this.aggregateOf(loaded);
        const changed = change(current);
        if (!changed || changed === current) return changed;
        return (await this.swap(loaded, changed)) ? changed : LOST_RACE;
      },
      { what: `The ${this.mapping.noun.toLowerCase()}` },
    );
  }

  /** True for the single caller whose read still matched; the record is gone afterwards. */
  protected async consumeRecord(loaded: Loaded<K, A, P>): Promise<boolean> {
    if (!this.records.claim) throw new AtomicityUnavailable(`atomic claims on ${this.mapping.collection}`);
    return this.records.claim(loaded.record);
  }

  /** A stored record as its aggregate, once the record passed the stored shape. */
  protected loaded(record: StoredRecord<P>): Loaded<K, A, P> {
    const checked = this.mapping.schema.safeParse(record.data);
    if (!checked.success) {
      throw new StoredShapeInvalid(
        this.mapping.collection,
        record.id,
        checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
      );
    }
    return this.loadedOf(this.mapping.fromPrimitives(record.data), record);
  }

  protected aggregateOf(loaded: Loaded<K, A, P>): A {
    return (loaded as Record<K, A>)[this.mapping.key];
  }

  private loadedOf(aggregate: A, record: StoredRecord<P>): Loaded<K, A, P> {
    return { [this.mapping.key]: aggregate, record } as Loaded<K, A, P>;
  }
}
