import { Grant, type StoredGrant } from '../../domain/guard/grant.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { grantShape } from './stored-shapes.js';

export type LoadedGrant = Loaded<'grant', Grant, StoredGrant>;

/**
 * Grants in the store, indexed by subject and tool so a call reads only its own candidates. Rows
 * written before grants said where they apply are read through `Grant.fromPrimitives`, which
 * gives them their meaning (see `reachOf`); they are rewritten in the new shape when next saved.
 */
export class GrantBook extends AggregateBook<'grant', Grant, StoredGrant> {
  constructor(records: RecordSet<StoredGrant>) {
    super(records, {
      collection: 'grants',
      key: 'grant',
      noun: 'Grant',
      schema: grantShape,
      ...asPrimitives(Grant),
      refsOf: (props) => ({ subject: props.subject, tool: props.tool, active: Grant.fromPrimitives(props).active ? 'yes' : 'no' }),
      ownerOf: (grant) => grant.subject,
    });
  }

  /** The subject's active grants of one tool: what a call is checked against. */
  async activeFor(subject: string, tool: string): Promise<Grant[]> {
    return (await this.list({ subject, tool, active: 'yes' }, 500)).items.map((loaded) => loaded.grant);
  }

  async activeOf(subject: string, limit: number, cursor: string | null): Promise<{ grants: Grant[]; nextCursor: string | null }> {
    const page = await this.list({ subject, active: 'yes' }, limit, cursor);
    return { grants: page.items.map((loaded) => loaded.grant), nextCursor: page.nextCursor };
  }

  /** Every active grant of the subject (all pages): for revoking what applies to one automation. */
  async everyActiveOf(subject: string): Promise<Grant[]> {
    return (await this.all({ subject, active: 'yes' })).map((loaded) => loaded.grant);
  }
}
