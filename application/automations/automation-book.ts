import { Automation, type AutomationPrimitives } from '../../domain/automations/automation.js';
import { AtomicityUnavailable, Conflict, NotFound } from '../../domain/errors.js';
import { everyRecord, type RecordSet, type StoredRecord } from '../../ports/store.js';

export interface LoadedAutomation {
  readonly automation: Automation;
  readonly record: StoredRecord<AutomationPrimitives>;
}

/**
 * Automations in the store, indexed by owner and by what fires them: the `firing` ref is
 * `schedule` or `webhook:<source>` while armed and absent otherwise, so the scheduler and the
 * webhook intake read only armed automations. Changes are compare-and-swaps on the revision read.
 */
export class AutomationBook {
  constructor(private readonly records: RecordSet<AutomationPrimitives>) {}

  async add(automation: Automation): Promise<void> {
    const props = automation.toPrimitives();
    await this.records.put({ id: props.id, data: props, refs: refsOf(automation) });
  }

  async find(id: string): Promise<LoadedAutomation | null> {
    const record = await this.records.get(id);
    return record ? { automation: Automation.fromPrimitives(record.data), record } : null;
  }

  /** The owner's automation, or not-found (someone else's id is never revealed). */
  async ownedBy(subject: string, id: string): Promise<LoadedAutomation> {
    const loaded = await this.find(id);
    if (!loaded || loaded.automation.owner.subject !== subject) throw new NotFound('Automation');
    return loaded;
  }

  /** Applies `change` to the current revision, retrying when someone else wrote in between. */
  async update(id: string, change: (automation: Automation) => Automation): Promise<Automation | null> {
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('compare-and-swap on automations');
    for (let attempt = 0; attempt < 8; attempt++) {
      const loaded = await this.find(id);
      if (!loaded) return null;
      const changed = change(loaded.automation);
      if (changed === loaded.automation) return changed;
      const props = changed.toPrimitives();
      if (await atomic.compareAndSwap(id, loaded.record.revision, { data: props, refs: refsOf(changed) })) return changed;
    }
    throw new Conflict('The automation kept changing under this request; try again');
  }

  async remove(id: string): Promise<void> {
    await this.records.delete(id);
  }

  async list(owner: string, limit: number, cursor: string | null): Promise<{ automations: Automation[]; nextCursor: string | null }> {
    const page = await this.records.list({ refs: { owner }, limit, cursor });
    return { automations: page.items.map((record) => Automation.fromPrimitives(record.data)), nextCursor: page.nextCursor };
  }

  /** Every armed automation with a schedule. */
  armedSchedules(): Promise<Automation[]> {
    return this.all('schedule');
  }

  /** Every armed automation listening to a webhook source. */
  armedOn(source: string): Promise<Automation[]> {
    return this.all(`webhook:${source}`);
  }

  private async all(firing: string): Promise<Automation[]> {
    return (await everyRecord(this.records, { firing })).map((record) => Automation.fromPrimitives(record.data));
  }
}

function refsOf(automation: Automation): Record<string, string> {
  const refs: Record<string, string> = { owner: automation.owner.subject };
  if (automation.armed) refs.firing = automation.trigger.kind === 'schedule' ? 'schedule' : `webhook:${automation.trigger.source}`;
  return refs;
}
