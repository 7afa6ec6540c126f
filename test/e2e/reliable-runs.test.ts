import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { sharedDevHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { until } from '../support/eventually.js';
import type { WireClient } from '../support/turn-client.js';
import { DEMO_SECRET, deliverDemo } from '../support/signed-delivery.js';
import { webhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createPorter } from '../../composition/create-porter.js';
import { get } from '../../composition/tokens.js';
import { AUTOMATION_TOKENS } from '../../composition/modules/automations-tokens.js';
import { containerOf } from '../../composition/porter-container.js';

type Part = Record<string, any>;

describe('Reliable runs over the wire: retry and concurrency options, dry run, rerun and completion webhooks', function () {
  this.timeout(30_000);
  let host: DevHostFixture;
  let ada: WireClient;
  let grace: WireClient;
  let receiver: WebhookReceiver;

  sharedDevHost(
    (started) => {
      ({ host, ada } = started);
      grace = host.client.as('grace');
    },
    () => ({ env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET }, porter: { completionWebhooks: { retryDelaysSeconds: [1, 1] } } }),
  );

  before(async () => {
    receiver = await webhookReceiver([500, 200]);
  });

  after(async () => {
    await receiver.close();
  });

  /** What notes_list answers, through a dry run of an automation that lists them: a dry run runs reads. */
  const storedNotes = async (who: WireClient): Promise<unknown> => {
    const lister = await who.json('POST', '/automations', {
      name: 'list notes',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: '/call notes_list {}' },
    });
    const listed = await who.json('POST', `/automations/${lister.body.id}/dry-run`, {});
    const part = listed.body.messages.flatMap((m: { parts: Part[] }) => m.parts).find((p: Part) => p.type === 'tool-notes_list');
    return part?.output?.notes;
  };

  it('creates an automation with retry, concurrency and notify: the secret is in that answer once, defaults are filled in', async () => {
    const plain = await ada.json('POST', '/automations', {
      name: 'plain',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'hi' },
    });
    expect(plain.status).to.equal(201);
    expect(plain.body).to.deep.include({
      retry: { max: 2, backoffSeconds: 30 },
      concurrency: { limit: 1, whenBusy: 'queue' },
      notify: null,
    });
    expect(plain.body).to.not.have.property('notifySecret');

    const created = await ada.json('POST', '/automations', {
      name: 'with everything',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'hi' },
      retry: { max: 4 },
      concurrency: { limit: 2, whenBusy: 'skip' },
      notify: { url: receiver.url },
    });
    expect(created.status).to.equal(201);
    expect(created.body).to.deep.include({ retry: { max: 4, backoffSeconds: 30 }, concurrency: { limit: 2, whenBusy: 'skip' } });
    expect(created.body.notify).to.deep.include({ url: receiver.url });
    expect(created.body.notifySecret).to.match(/^whsec_/);
    const read = await ada.json('GET', `/automations/${created.body.id}`);
    expect(read.body).to.not.have.property('notifySecret');
    expect(JSON.stringify(read.body)).to.not.include(created.body.notifySecret.slice('whsec_'.length));
    expect(JSON.stringify((await ada.json('GET', '/automations')).body)).to.not.include('whsec_');

    const changed = await ada.json('PATCH', `/automations/${created.body.id}`, { notify: null, retry: { max: 0 } });
    expect(changed.status).to.equal(200);
    expect(changed.body).to.deep.include({ notify: null, retry: { max: 0, backoffSeconds: 30 } });
    expect(changed.body).to.not.have.property('notifySecret');
  });

  it('refuses bad options with a 400 naming the field, and another person’s automation or run with a 404', async () => {
    const base = { name: 'bad', trigger: { kind: 'webhook', source: 'demo' }, task: { prompt: 'hi' } };
    const bad: Array<[string, Record<string, unknown>]> = [
      ['retry.max', { retry: { max: 11 } }],
      ['retry.backoffSeconds', { retry: { backoffSeconds: -1 } }],
      ['retry', { retry: { max: 1, jitter: true } }],
      ['concurrency.limit', { concurrency: { limit: 0 } }],
      ['concurrency.whenBusy', { concurrency: { whenBusy: 'drop' } }],
      ['notify.url', { notify: { url: 'ftp://example.com/hook' } }],
      ['notify.url', { notify: { url: 'not a url' } }],
      ['notify', { notify: { url: receiver.url, secret: 'whsec_mine' } }],
    ];
    for (const [field, extra] of bad) {
      const answer = await ada.json('POST', '/automations', { ...base, ...extra });
      expect(answer.status, field).to.equal(400);
      expect(answer.body.error.code, field).to.equal('validation');
      expect(JSON.stringify(answer.body.error), field).to.include(field.split('.')[0]);
    }
    expect((await ada.json('PATCH', '/automations/atm_00000000000000000000000000', {})).status).to.equal(400);

    const mine = await ada.json('POST', '/automations', base);
    expect((await grace.json('POST', `/automations/${mine.body.id}/dry-run`, {})).status).to.equal(404);
    expect((await ada.json('POST', '/automations/atm_00000000000000000000000000/dry-run', {})).status).to.equal(404);
    // A path parameter that cannot name anything is an unknown id.
    expect((await ada.json('POST', '/automations/not-an-id/dry-run', {})).status).to.equal(404);
    expect((await ada.json('POST', `/automations/${mine.body.id}/dry-run`, { input: 7 })).status).to.equal(400);
    expect((await ada.json('POST', `/automations/${mine.body.id}/dry-run`, { prompt: 'other' })).status).to.equal(400);
    expect((await ada.json('POST', '/runs/run_00000000000000000000000000/rerun', {})).status).to.equal(404);
    expect((await ada.json('POST', '/runs/nope/rerun', {})).status).to.equal(404);
  });

  it('a dry run of a task that adds a note adds none and answers with the preview; a rerun of it is a dry run again', async () => {
    const created = await ada.json('POST', '/automations', {
      name: 'note the bank',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: '/call notes_add {"text":"call the bank"}', tools: ['notes_add'] },
    });
    const dry = await ada.json('POST', `/automations/${created.body.id}/dry-run`, {});
    expect(dry.status).to.equal(201);
    expect(dry.body).to.deep.include({ state: 'succeeded', dryRun: true, cause: { kind: 'dry-run' }, startedBy: 'ada' });
    expect(dry.body.previews).to.deep.equal([
      {
        toolCallId: dry.body.previews[0].toolCallId,
        tool: 'notes_add',
        risk: 'write',
        egress: false,
        preview: 'Add the note “call the bank”',
      },
    ]);
    expect((await ada.json('GET', '/approvals')).body.approvals).to.deep.equal([]);
    expect(await storedNotes(ada)).to.deep.equal([]);
    const shown = await ada.json('GET', `/runs/${dry.body.id}`);
    expect(shown.body.previews).to.deep.equal(dry.body.previews);

    const again = await ada.json('POST', `/runs/${dry.body.id}/rerun`, {});
    expect(again.status).to.equal(201);
    expect(again.body).to.deep.include({ dryRun: true, cause: { kind: 'rerun', of: dry.body.id } });
    const rerun = await until(
      () => ada.json('GET', `/runs/${again.body.id}`),
      (r) => r.body.state === 'succeeded',
    );
    expect(rerun.body.previews.map((p: Part) => p.tool)).to.deep.equal(['notes_add']);
    expect((await grace.json('POST', `/runs/${dry.body.id}/rerun`, {})).status).to.equal(404);
    expect((await grace.json('GET', `/runs/${dry.body.id}`)).status).to.equal(404);
  });

  it('a run that ends sends its completion webhook, verified by standardwebhooks, retried after a 500; GET /runs/:id shows each attempt', async () => {
    const created = await ada.json('POST', '/automations', {
      name: 'tell the ledger',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'Acknowledge the order' },
      notify: { url: receiver.url },
    });
    await ada.json('POST', `/automations/${created.body.id}/arm`, {});
    const runIds = await deliverDemo(host.client.base, '{"order":7}');
    expect(runIds).to.have.length(1);
    const run = await until(
      () => ada.json('GET', `/runs/${runIds[0]}`),
      (r) => r.body.webhook?.state === 'delivered',
      { what: 'the completion webhook to be delivered' },
    );
    expect(run.body.webhook.attempts.map((a: Part) => a.status)).to.deep.equal([500, 200]);
    expect(run.body.webhook).to.not.have.property('sealedSecret');
    const verifier = new Webhook(created.body.notifySecret);
    const mine = receiver.received.filter((r) => r.headers['webhook-id'] === run.body.webhook.id);
    expect(mine.map((r) => r.answered)).to.deep.equal([500, 200]);
    for (const request of mine) {
      const payload = verifier.verify(request.body, request.headers as Record<string, string>) as Part;
      expect(payload).to.deep.include({ type: 'run.completed' });
      expect(payload.data).to.deep.include({ runId: run.body.id, automationId: created.body.id, state: 'succeeded' });
      expect(payload.data.summary).to.include('Acknowledge the order');
    }
  });

  it('in production, notify may not point at this machine or a private network', async () => {
    const porter = await createPorter(
      { development: false, secret: 'a-production-secret-for-the-tests-0123456789', databaseUrl: 'sqlite::memory:', logger: 'silent' },
      {},
    );
    try {
      const automations = get(containerOf(porter), AUTOMATION_TOKENS.AutomationUseCases);
      const create = (url: string) =>
        automations.createAutomation.execute({
          principal: { subject: 'ada', kind: 'user' },
          name: 'to a local receiver',
          trigger: { kind: 'schedule', cron: '0 9 * * *' },
          task: { prompt: 'hi' },
          notify: { url },
        });
      for (const url of [receiver.url, 'http://localhost:8080/hook', 'http://192.168.1.20/hook', 'http://[::1]/hook']) {
        const refused = await create(url).catch((error: unknown) => error as { code?: string; message?: string });
        expect((refused as { code?: string }).code, url).to.equal('validation');
        expect((refused as { message?: string }).message, url).to.match(/notify\.url: Porter will not send webhooks/);
      }
    } finally {
      await porter.close();
    }
  });
});
