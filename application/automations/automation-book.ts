import { Automation, type AutomationPrimitives } from '../../domain/automations/automation.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { automationShape } from './stored-shapes.js';

export type LoadedAutomation = Loaded<'automation', Automation, AutomationPrimitives>;

/**
 * Automations in the store, indexed by owner and by what fires them: the `firing` ref is
 * `schedule` or `webhook:<source>` while armed and absent otherwise, so the scheduler and the
 * webhook intake read only armed automations. Changes are swaps on the revision read.
 */
export class AutomationBook extends AggregateBook<'automation', Automation, AutomationPrimitives> {
  constructor(records: RecordSet<AutomationPrimitives>) {
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

  async remove(id: string): Promise<void> {
    await this.records.delete(id);
  }

  /** Every armed automation with a schedule. */
  async armedSchedules(): Promise<Automation[]> {
    return (await this.all({ firing: 'schedule' })).map((loaded) => loaded.automation);
  }

  /** Every armed automation listening to a webhook source. */
  async armedOn(source: string): Promise<Automation[]> {
    return (await this.all({ firing: `webhook:${source}` })).map((loaded) => loaded.automation);
  }
}

function refsOf(props: AutomationPrimitives): Record<string, string> {
  const refs: Record<string, string> = { owner: props.owner.subject };
  if (props.armed) refs.firing = props.trigger.kind === 'schedule' ? 'schedule' : `webhook:${props.trigger.source}`;
  return refs;
}
