import { Automation, type AutomationPrimitives } from '../../domain/automations/automation.js';
import type { ScheduleWakeUps } from '../../ports/scheduler.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { automationShape } from './stored-shapes.js';
import type { HeldDeletions } from '../deletions/deletable.js';
import { NotFound } from '../../domain/errors.js';

export type LoadedAutomation = Loaded<'automation', Automation, AutomationPrimitives>;

/** No other instance to tell (a store without feeds, or a test): tickers find the schedule at their next tick. */
export const UNHEARD_SCHEDULES: ScheduleWakeUps = { signal: async () => undefined, watch: async () => () => undefined };

/**
 * Automations in the store, indexed by owner and by what fires them: the `firing` ref is
 * `schedule` or `webhook:<source>` while armed and absent otherwise, so the scheduler and the
 * webhook intake read only armed automations. Changes are swaps on the revision read. Arming a
 * schedule wakes every instance's ticker, so a slot due before its next tick is not missed.
 */
export class AutomationBook extends AggregateBook<'automation', Automation, AutomationPrimitives> {
  constructor(
    records: RecordSet<AutomationPrimitives>,
    private readonly schedules: ScheduleWakeUps = UNHEARD_SCHEDULES,
    private readonly held?: HeldDeletions,
  ) {
    super(records, {
      collection: 'automations',
      key: 'automation',
      noun: 'Automation',
      schema: automationShape,
      ...asPrimitives(Automation),
      refsOf,
      ownerOf: (automation) => automation.owner.subject,
    });
  }

  override async save(automation: Automation): Promise<void> {
    await super.save(automation);
    if (automation.onSchedule) await this.schedules.signal();
  }

  override async swap(loaded: LoadedAutomation, next: Automation): Promise<LoadedAutomation | null> {
    const swapped = await super.swap(loaded, next);
    if (swapped && next.onSchedule && !loaded.automation.onSchedule) await this.schedules.signal();
    return swapped;
  }

  /**
   * The owner's automation while it is in use: one waiting out its undo window is out of use, so
   * starting, dry-running, arming or changing it is 404 like a deleted one (undo brings it back).
   */
  async inUseBy(owner: string, id: string): Promise<LoadedAutomation> {
    const loaded = await this.ownedBy(owner, id);
    if (await this.isHeld(id)) throw new NotFound('Automation');
    return loaded;
  }

  /** Whether the automation waits out its undo window (out of use). */
  async isHeld(id: string): Promise<boolean> {
    return (await this.held?.holds(id)) ?? false;
  }

  async remove(id: string): Promise<void> {
    await this.records.delete(id);
  }

  /** Every armed automation with a schedule, but one waiting out its undo window: it does not fire. */
  async armedSchedules(): Promise<Automation[]> {
    return this.notHeld((await this.all({ firing: 'schedule' })).map((loaded) => loaded.automation));
  }

  /** Every armed automation listening to a webhook source, but one waiting out its undo window. */
  async armedOn(source: string): Promise<Automation[]> {
    return this.notHeld((await this.all({ firing: `webhook:${source}` })).map((loaded) => loaded.automation));
  }

  private async notHeld(automations: Automation[]): Promise<Automation[]> {
    if (!this.held || automations.length === 0) return automations;
    const held = await this.held.everyHeld('automation');
    return automations.filter((automation) => !held.has(automation.id));
  }
}

function refsOf(props: AutomationPrimitives): Record<string, string> {
  const refs: Record<string, string> = { owner: props.owner.subject };
  if (props.armed) refs.firing = props.trigger.kind === 'schedule' ? 'schedule' : `webhook:${props.trigger.source}`;
  return refs;
}
