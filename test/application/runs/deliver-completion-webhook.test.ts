import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { ada } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';
import { ManualClock } from '../../support/manual-clock.js';
import { webhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.js';

describe('DeliverCompletionWebhook: the completion webhook reaches its URL, signed, and its log says how', () => {
  let receiver: WebhookReceiver | null = null;
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
  });

  async function endedRun(statuses: number[], retryDelaysMs: number[]) {
    receiver = await webhookReceiver(statuses);
    // Signatures carry the attempt's time, and standardwebhooks checks it against the real clock.
    const clock = new ManualClock(Date.now());
    const h = automationsHarness({ tools: [], clock, webhookRetryDelaysMs: retryDelaysMs });
    const automation = await h.automation({ prompt: 'hello', notify: { url: receiver.url } });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    await h.runQueued();
    return { h, clock, secret: automation.notifySecret!, runId: run.id, receiver };
  }

  it('sends the body signed with the automation’s secret, once: delivered, and a second hand-over sends nothing', async () => {
    const { h, secret, runId, receiver } = await endedRun([200], [5_000]);
    const [webhookId] = await h.deliverQueued();
    await h.deliver.execute(webhookId!);
    expect(receiver.received).to.have.length(1);
    const [sent] = receiver.received;
    const verified = new Webhook(secret).verify(sent!.body, sent!.headers as Record<string, string>) as {
      type: string;
      data: { runId: string };
    };
    expect(verified).to.deep.include({ type: 'run.completed' });
    expect(verified.data.runId).to.equal(runId);
    const { webhook } = await h.getRun.execute({ principal: ada, runId });
    expect(webhook).to.deep.include({ state: 'delivered', nextAttemptAt: null });
    expect(webhook!.attempts.map((a) => a.status)).to.deep.equal([200]);
  });

  it('tries again after each delay while the receiver fails, then gives up: not delivered, every answer in the log', async () => {
    const { h, clock, runId, receiver } = await endedRun([503], [5_000]);
    await h.deliverQueued();
    const pending = (await h.getRun.execute({ principal: ada, runId })).webhook!;
    expect(pending).to.deep.include({ state: 'pending' });
    expect(pending.nextAttemptAt).to.equal(new Date(Date.parse(pending.attempts[0]!.at) + 5_000).toISOString());
    expect(await h.deliverQueued(), 'not before its time').to.deep.equal([]);

    clock.advance(5_000);
    await h.deliverQueued();
    const failed = (await h.getRun.execute({ principal: ada, runId })).webhook!;
    expect(failed).to.deep.include({ state: 'failed', nextAttemptAt: null });
    expect(failed.attempts.map((a) => a.status)).to.deep.equal([503, 503]);
    expect(receiver.received).to.have.length(2);
  });
});
