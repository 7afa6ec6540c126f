import { expect } from 'chai';
import { RecordCompletionWebhook } from '../../../application/runs/record-completion-webhook.js';
import { ada } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

const HOOK = 'http://127.0.0.1:9/hooks/porter';

describe('RecordCompletionWebhook: a run that ends tells its automation’s URL, once', () => {
  it('records run.completed when a run of a notifying automation ends, its body fixed now, and hands it to a sender', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'Summarise the day', notify: { url: HOOK } });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    await h.runQueued();

    const detail = await h.getRun.execute({ principal: ada, runId: run.id });
    expect(detail.webhook).to.deep.include({ type: 'run.completed', state: 'pending', url: HOOK, attempts: [] });
    expect(h.webhookDispatcher.dispatched).to.deep.equal([detail.webhook!.id]);
    const [webhook] = await h.webhookBook.ofRun(run.id);
    const body = JSON.parse(webhook!.toPrimitives().body) as { type: string; data: Record<string, unknown> };
    expect(body.type).to.equal('run.completed');
    expect(body.data).to.deep.include({ runId: run.id, automationId: automation.id, state: 'succeeded' });
    expect(JSON.stringify(body), 'the secret never travels in the body').not.to.include('whsec_');
  });

  it('records it once however often the end is followed up', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello', notify: { url: HOOK } });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    await h.runQueued();
    const record = new RecordCompletionWebhook({
      webhooks: h.webhookBook,
      automations: h.automations,
      runs: h.runs,
      dispatcher: h.webhookDispatcher,
      clock: h.clock,
    });
    const ended = (await h.runs.find(run.id))!.run;
    await record.forEnded(ended);
    await record.forEnded(ended);
    expect(await h.webhookBook.ofRun(run.id)).to.have.length(1);
    expect(h.webhookDispatcher.dispatched).to.have.length(1);
  });

  it('records none for a dry run, a run still going, or an automation that notifies nobody', async () => {
    const h = automationsHarness({ tools: [] });
    const notifying = await h.automation({ prompt: 'hello', notify: { url: HOOK } });
    const silent = await h.automation({ prompt: 'hello' });
    const dry = await h.dryRun.execute({ principal: ada, automationId: notifying.id });
    const queued = await h.runNow.execute({ principal: ada, automationId: notifying.id, venue: 'wire' });
    const record = new RecordCompletionWebhook({
      webhooks: h.webhookBook,
      automations: h.automations,
      runs: h.runs,
      dispatcher: h.webhookDispatcher,
      clock: h.clock,
    });
    await record.forEnded((await h.runs.find(queued.id))!.run);
    const plain = await h.runNow.execute({ principal: ada, automationId: silent.id, venue: 'wire' });
    await h.dispatcher.drain((id) => (id === plain.id ? h.executor.execute(id) : Promise.resolve()));
    expect(dry.webhook).to.equal(null);
    expect(await h.webhookBook.ofRun(queued.id)).to.deep.equal([]);
    expect((await h.getRun.execute({ principal: ada, runId: plain.id })).webhook).to.equal(null);
    expect(h.webhookDispatcher.dispatched).to.deep.equal([]);
  });
});
