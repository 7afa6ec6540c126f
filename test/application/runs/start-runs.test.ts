import { expect } from 'chai';
import { StartRuns } from '../../../application/runs/start-runs.js';
import { ada } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

describe('StartRuns: runs from schedule slots and webhook deliveries, each once', () => {
  async function setUp() {
    const h = automationsHarness({ tools: [] });
    const created = await h.automation({ prompt: 'hello', retry: { max: 3, backoffSeconds: 10 } });
    const { automation } = (await h.automations.find(created.id))!;
    return { h, automation, starts: new StartRuns(h.runs, h.dispatcher, h.ids, h.clock) };
  }

  it('starts one run per slot, started by the scheduler with the automation’s retry; the same slot again starts none', async () => {
    const { h, automation, starts } = await setUp();
    const slot = new Date('2026-06-01T12:01:00.000Z');
    const [runId] = await starts.forSlots([{ automation, slot }]);
    expect(await starts.forSlots([{ automation, slot }]), 'the slot was claimed').to.deep.equal([]);
    expect(h.dispatcher.take()).to.deep.equal([runId]);
    const run = (await h.runs.find(runId!))!.run.toPrimitives();
    expect(run).to.deep.include({ state: 'queued', startedBy: 'porter:scheduler', cause: { kind: 'schedule', slot: slot.toISOString() } });
    expect(run.retry).to.deep.include({ max: 3 });
  });

  it('starts one run per automation for a delivery, with its body as input; the delivery again adds none but hands them over again', async () => {
    const { h, automation, starts } = await setUp();
    const receivedAt = h.clock.now();
    const ids = await starts.forDelivery([automation], 'orders', 'msg_1', '{"order":42}', receivedAt);
    const again = await starts.forDelivery([automation], 'orders', 'msg_1', '{"order":42}', receivedAt);
    expect(again).to.deep.equal(ids);
    expect(h.dispatcher.take()).to.deep.equal([...ids, ...ids]);
    expect((await h.listRuns.execute({ principal: ada })).runs).to.have.length(1);
    expect((await h.runs.find(ids[0]!))!.run.toPrimitives()).to.deep.include({
      startedBy: 'porter:webhook:orders',
      input: '{"order":42}',
      cause: { kind: 'webhook', source: 'orders', deliveryId: 'msg_1' },
    });
  });
});
