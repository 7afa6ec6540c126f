import { Grant, type StoredGrant } from '../../domain/guard/grant.js';
import { NotFound } from '../../domain/errors.js';
import { everyRecord, type RecordSet } from '../../ports/store.js';

/**
 * Grants in the store, indexed by subject and tool so a call reads only its own candidates. Rows
 * written before grants said where they apply are read through `Grant.fromPrimitives`, which
 * gives them their meaning (see `reachOf`); they are rewritten in the new shape when next saved.
 */
export class GrantBook {
  constructor(private readonly records: RecordSet<StoredGrant>) {}

  async save(grant: Grant): Promise<void> {
    const props = grant.toPrimitives();
    await this.records.put({
      id: props.id,
      data: props,
      refs: { subject: props.subject, tool: props.tool, active: grant.active ? 'yes' : 'no' },
    });
  }

  async activeFor(subject: string, tool: string): Promise<Grant[]> {
    const page = await this.records.list({ refs: { subject, tool, active: 'yes' }, limit: 500 });
    return page.items.map((record) => Grant.fromPrimitives(record.data));
  }

  async activeOf(subject: string, limit: number, cursor: string | null): Promise<{ grants: Grant[]; nextCursor: string | null }> {
    const page = await this.records.list({ refs: { subject, active: 'yes' }, limit, cursor });
    return { grants: page.items.map((record) => Grant.fromPrimitives(record.data)), nextCursor: page.nextCursor };
  }

  /** Every active grant of the subject (all pages): for revoking what applies to one automation. */
  async everyActiveOf(subject: string): Promise<Grant[]> {
    return (await everyRecord(this.records, { subject, active: 'yes' })).map((record) => Grant.fromPrimitives(record.data));
  }

  async ownedBy(subject: string, id: string): Promise<Grant> {
    const record = await this.records.get(id);
    if (!record || record.data.subject !== subject) throw new NotFound('Grant');
    return Grant.fromPrimitives(record.data);
  }
}
