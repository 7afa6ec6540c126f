import { expect } from 'chai';
import { AutomationBook } from '../../../application/automations/automation-book.js';
import { Automation, type AutomationPrimitives, type Trigger } from '../../../domain/automations/automation.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';

const NOW = '2026-11-29T08:00:00.000Z';

describe('The automation book tells every ticker when a schedule is armed', () => {
  let signals: number;
  let book: AutomationBook;

  beforeEach(() => {
    signals = 0;
    const store = new MemoryStore({ clock: new ManualClock() });
    book = new AutomationBook(store.records<AutomationPrimitives>('automations'), {
      signal: async () => {
        signals += 1;
      },
      watch: async () => () => undefined,
    });
  });

  async function created(trigger: Trigger) {
    const automation = Automation.create({
      id: `atm_${trigger.kind}`,
      name: 'Morning digest',
      trigger,
      task: { prompt: 'Summarise', tools: [] },
      owner: { subject: 'ada', kind: 'user' },
      now: NOW,
    });
    await book.save(automation);
    return (await book.find(automation.id))!;
  }

  it('arming a schedule signals every ticker; renaming or disarming it does not, arming it again does', async () => {
    const loaded = await created({ kind: 'schedule', cron: '*/5 * * * * *' });
    expect(signals).to.equal(0);
    const armed = await book.swap(loaded, loaded.automation.arm(NOW));
    expect(signals).to.equal(1);
    const renamed = await book.swap(armed!, armed!.automation.change({ name: 'Digest' }, NOW));
    const disarmed = await book.swap(renamed!, renamed!.automation.disarm(NOW));
    expect(signals).to.equal(1);
    await book.update(disarmed!.automation.id, (automation) => automation.arm(NOW));
    expect(signals).to.equal(2);
  });

  it('arming a webhook automation signals nothing', async () => {
    const loaded = await created({ kind: 'webhook', source: 'demo' });
    await book.swap(loaded, loaded.automation.arm(NOW));
    expect(signals).to.equal(0);
  });
});
