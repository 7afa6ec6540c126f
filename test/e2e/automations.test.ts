import { expect } from 'chai';
import { request } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { devHost } from '../support/dev-host-fixture.js';
import { until } from '../support/eventually.js';
import type { WireClient } from '../support/turn-client.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import { demoPrincipal } from '../../composition/dev-host/demo-principal.js';
import { get, TOKENS } from '../../composition/tokens.js';
import type { PrincipalResolver } from '../../ports/principal-resolver.js';
import { containerOf } from '../../composition/porter-container.js';
import { createArmed } from '../support/armed-automation.js';

const DEMO_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const TICK_SECRET = 'an-e2e-tick-secret-0123456789';

type Part = Record<string, any>;

describe('Automations, runs, /tick and signed webhooks through the development host', function () {
  this.timeout(30_000);
  let host: DevHost & { client: WireClient };
  let ada: WireClient;
  let resolverCalls = 0;
  const counting: PrincipalResolver = (req) => {
    resolverCalls += 1;
    return demoPrincipal(req);
  };

  before(async () => {
    host = await devHost({
      env: { PORTER_TICK_SECRET: TICK_SECRET, PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET },
      porter: { principal: counting },
    });
    ada = host.client.as('ada');
  });

  after(async () => {
    await host.close();
  });

  const audit = () => get(containerOf(host.porter), TOKENS.AuditLog);
  const refusals = async () =>
    (await audit().list('porter:webhook:demo', { limit: 100 })).events.filter((e) => e.action === 'webhook.verification-failed');
  const runCount = async () => (await ada.json('GET', '/runs?limit=100')).body.runs.length as number;

  /** A delivery to /webhooks/<source>, signed by the standardwebhooks library unless told otherwise. */
  async function deliver(payload: string, options: { id?: string; at?: Date; secret?: string; source?: string; body?: string } = {}) {
    const id = options.id ?? `msg_${Math.random().toString(36).slice(2)}`;
    const at = options.at ?? new Date();
    const signature = new Webhook(options.secret ?? DEMO_SECRET).sign(id, at, payload);
    const response = await fetch(`${host.client.base}/webhooks/${options.source ?? 'demo'}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: options.body ?? payload,
    });
    return { status: response.status, body: await response.json(), setCookie: response.headers.get('set-cookie'), id };
  }

  it('a delivery signed with the standardwebhooks library starts one run per armed automation, under porter:webhook:demo', async () => {
    const { created, armed } = await createArmed(ada, {
      name: 'on demo deliveries',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'Summarise this delivery.' },
    });
    expect(created.status).to.equal(201);
    expect(armed.body.automation.armed).to.equal(true);

    const before = resolverCalls;
    const accepted = await deliver('{"order":42}');
    expect(accepted.status).to.equal(202);
    expect(accepted.body.runIds).to.have.length(1);
    expect(resolverCalls).to.equal(before);
    expect(accepted.setCookie).to.equal(null);

    const run = await until(
      () => ada.json('GET', `/runs/${accepted.body.runIds[0]}`),
      (r) => r.body.state === 'succeeded',
    );
    expect(run.body).to.deep.include({
      automationId: created.body.id,
      owner: 'ada',
      startedBy: 'porter:webhook:demo',
      cause: { kind: 'webhook', source: 'demo', deliveryId: accepted.id },
    });
    const said = run.body.messages
      .flatMap((m: { parts: Part[] }) => m.parts)
      .filter((p: Part) => p.type === 'text')
      .map((p: Part) => p.text)
      .join('\n');
    expect(said).to.contain('{"order":42}');
    const received = (await audit().list('porter:webhook:demo', { limit: 100 })).events.find(
      (e) => e.action === 'webhook.received' && (e.details as { deliveryId?: string }).deliveryId === accepted.id,
    );
    expect(received?.subject).to.equal('porter:webhook:demo');

    // The same delivery again (a retry, or a replay of a capture) starts nothing.
    const runs = await runCount();
    const replayed = await fetch(`${host.client.base}/webhooks/demo`, {
      method: 'POST',
      headers: {
        'webhook-id': accepted.id,
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': new Webhook(DEMO_SECRET).sign(accepted.id, new Date(Math.floor(Date.now() / 1000) * 1000), '{"order":42}'),
      },
      body: '{"order":42}',
    });
    expect(replayed.status).to.equal(200);
    expect(await replayed.json()).to.deep.equal({ deduplicated: true });
    expect(await runCount()).to.equal(runs);
  });

  it('refuses tampered, stale, foreign-secret and unknown-source deliveries: 401, no principal, no run, one audit event each', async () => {
    const runs = await runCount();
    const cases: Array<{ name: string; send: () => Promise<{ status: number; body: any; setCookie: string | null }> }> = [
      { name: 'tampered', send: () => deliver('{"amount":1}', { body: '{"amount":1000}' }) },
      { name: 'stale', send: () => deliver('{"amount":1}', { at: new Date(Date.now() - 6 * 60_000) }) },
      { name: 'from the future', send: () => deliver('{"amount":1}', { at: new Date(Date.now() + 6 * 60_000) }) },
      { name: 'another secret', send: () => deliver('{"amount":1}', { secret: 'whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldY' }) },
    ];
    for (const { name, send } of cases) {
      const before = (await refusals()).length;
      const calls = resolverCalls;
      const answer = await send();
      expect(answer.status, name).to.equal(401);
      expect(answer.body, name).to.deep.equal({ error: { code: 'unauthorized', message: 'The webhook delivery could not be verified' } });
      expect(answer.setCookie, name).to.equal(null);
      expect(resolverCalls, name).to.equal(calls);
      expect((await refusals()).length, name).to.equal(before + 1);
    }
    const unknownBefore = (await audit().list('porter:webhook:nobody', {})).events.length;
    const unknown = await deliver('{}', { source: 'nobody' });
    expect(unknown.status).to.equal(401);
    const unknownEvents = (await audit().list('porter:webhook:nobody', {})).events;
    expect(unknownEvents.length).to.equal(unknownBefore + 1);
    expect(unknownEvents[0]).to.deep.include({ action: 'webhook.verification-failed', outcome: 'unknown-source' });
    expect(await runCount()).to.equal(runs);
  });

  it('refuses a body over 1 MiB with 413 without reading it to the end, with one audit event and no run', async () => {
    const runs = await runCount();
    const before = (await refusals()).length;
    const url = new URL(`${host.client.base}/webhooks/demo`);
    // A little over the cap, then the request is held open: the answer can only come from a server
    // that stopped reading. (Streaming on regardless would race the server's close with our writes.)
    const total = 1024 * 1024 + 64 * 1024;
    const answer = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          answered = true;
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body: text, sent });
            req.destroy();
          });
        },
      );
      // Once the server has answered, its closing the connection under our last writes is expected.
      req.on('error', (error) => (answered ? undefined : reject(error)));
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
      };
      pump();
    }).catch((error: NodeJS.ErrnoException) => ({ status: -1, body: String(error.code), sent: 0 }));
    expect(answer.status).to.equal(413);
    expect(JSON.parse(answer.body).error.code).to.equal('payload-too-large');
    expect((await refusals()).length).to.equal(before + 1);
    expect((await refusals())[0]).to.deep.include({ outcome: 'too-large' });
    expect(await runCount()).to.equal(runs);
  });

  it('stops reading at the cap: answers 413 while the sender is still sending, for a declared or a streamed length', async () => {
    const url = new URL(`${host.client.base}/webhooks/demo`);
    /** Sends `first` bytes and then holds the request open: only a server that stopped reading can answer. */
    const heldOpen = (headers: Record<string, string>, first: Buffer) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => {
              req.destroy();
              resolve({ status: res.statusCode ?? 0, body: text });
            });
          },
        );
        req.on('error', reject);
        req.write(first);
        setTimeout(() => {
          req.destroy();
          reject(new Error('no answer while the body was still open: the server waited for the rest'));
        }, 5_000).unref();
      });
    const runs = await runCount();
    const before = (await refusals()).length;
    const declared = await heldOpen({ 'content-length': String(64 * 1024 * 1024) }, Buffer.from('{"a":'));
    expect(declared.status).to.equal(413);
    expect(JSON.parse(declared.body).error.code).to.equal('payload-too-large');
    const streamed = await heldOpen({ 'transfer-encoding': 'chunked' }, Buffer.alloc(1024 * 1024 + 1, 'a'));
    expect(streamed.status).to.equal(413);
    expect((await refusals()).length).to.equal(before + 2);
    expect(await runCount()).to.equal(runs);
  });

  it('POST /tick with a wrong or missing secret is 401 in the envelope; with the secret it answers {runIds}', async () => {
    const wrong = await fetch(`${host.client.base}/tick`, { method: 'POST', headers: { authorization: 'Bearer not-the-secret-at-all' } });
    expect(wrong.status).to.equal(401);
    expect((await wrong.json()).error.code).to.equal('unauthorized');
    expect((await fetch(`${host.client.base}/tick`, { method: 'POST' })).status).to.equal(401);
    const right = await fetch(`${host.client.base}/tick`, { method: 'POST', headers: { authorization: `Bearer ${TICK_SECRET}` } });
    expect(right.status).to.equal(200);
    expect(await right.json())
      .to.have.property('runIds')
      .that.is.an('array');
  });

  it('arming asks in /approvals; once approved, a scheduled run adds a note as ada with the standing grant', async () => {
    const created = await ada.json('POST', '/automations', {
      name: 'every second',
      trigger: { kind: 'schedule', cron: '* * * * * *' },
      task: { prompt: '/call notes_add {"text":"from the schedule"}', tools: ['notes_add'] },
    });
    const armed = await ada.json('POST', `/automations/${created.body.id}/arm`, {});
    const [ask] = armed.body.asks;
    expect(ask.tool).to.equal('notes_add');
    const pending = await ada.json('GET', '/approvals');
    expect(pending.body.approvals.map((a: { id: string }) => a.id)).to.include(ask.approvalId);
    expect((await ada.json('POST', `/approvals/${ask.approvalId}/decide`, { approve: true })).status).to.equal(200);
    expect((await ada.json('GET', '/grants')).body.grants.some((g: Part) => g.tool === 'notes_add' && g.duration === 'standing')).to.equal(
      true,
    );

    // Tick until a slot is due and a tick starts this automation's run (no fixed wait for the clock):
    // this one, or the development host's own ticker, which arming woke.
    const mine = await until(
      async () => {
        await fetch(`${host.client.base}/tick`, { method: 'POST', headers: { authorization: `Bearer ${TICK_SECRET}` } });
        return (await ada.json('GET', `/runs?automationId=${created.body.id}`)).body.runs.map((r: { id: string }) => r.id) as string[];
      },
      (ids) => ids.length > 0,
      { what: 'a scheduled run of the armed automation' },
    );
    const run = await until(
      () => ada.json('GET', `/runs/${mine[0]}`),
      (r) => r.body.state === 'succeeded',
    );
    expect(run.body.cause, 'a slot of its schedule started it').to.have.property('kind', 'schedule');
    const call = run.body.messages.flatMap((m: { parts: Part[] }) => m.parts).find((p: Part) => p.type === 'tool-notes_add');
    expect(call).to.deep.include({ state: 'output-available' });
    await ada.json('POST', `/automations/${created.body.id}/disarm`, {});

    const thread = await ada.newThread();
    const listed = await ada.say(thread, '/call notes_list {}');
    const notes = (listed.message.parts.find((p) => p.type === 'tool-notes_list') as Part).output.notes as string[];
    expect(notes).to.include('from the schedule');
  });

  it('stopping a run twice answers the same, and drops the approval it parked', async () => {
    const created = await ada.json('POST', '/automations', {
      name: 'clears notes',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: '/call notes_clear {}' },
    });
    await ada.json('POST', `/automations/${created.body.id}/arm`, {});
    const accepted = await deliver('{"please":"clear"}');
    const mine = await until(
      () => ada.json('GET', `/runs?automationId=${created.body.id}`),
      (r) => r.body.runs[0]?.state === 'waiting',
    );
    expect(mine.body.runs[0].id).to.be.oneOf(accepted.body.runIds);
    const parked = (await ada.json('GET', '/approvals')).body.approvals.find((a: Part) => a.request.runId === mine.body.runs[0].id);
    expect(parked.request).to.deep.include({ tool: 'notes_clear', venue: 'automation', presence: 'away' });

    const first = await ada.json('POST', `/runs/${mine.body.runs[0].id}/stop`, {});
    const second = await ada.json('POST', `/runs/${mine.body.runs[0].id}/stop`, {});
    expect(first.status).to.equal(200);
    expect(first.body).to.deep.include({ state: 'cancelled', ending: 'stopped' });
    expect(second.status).to.equal(200);
    expect(second.body).to.deep.equal(first.body);
    expect((await ada.json('GET', `/approvals/${parked.id}`)).body).to.deep.include({
      state: 'expired',
      outcome: { kind: 'expired', reason: 'dropped' },
    });
  });

  it("validates automations strictly and hides other people's", async () => {
    const bad = await ada.json('POST', '/automations', {
      name: 'x',
      trigger: { kind: 'schedule', cron: 'sometimes' },
      task: { prompt: 'x' },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('validation');
    const extra = await ada.json('POST', '/automations', {
      name: 'x',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'x' },
      id: 'atm_mine',
    });
    expect(extra.status).to.equal(400);
    const created = await ada.json('POST', '/automations', {
      name: 'private',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'x' },
    });
    const bob = host.client.as('bob');
    expect((await bob.json('GET', `/automations/${created.body.id}`)).status).to.equal(404);
    expect((await bob.json('DELETE', `/automations/${created.body.id}`)).status).to.equal(404);
    expect((await ada.json('PATCH', `/automations/${created.body.id}`, { name: 'renamed' })).body.name).to.equal('renamed');
    expect((await ada.json('DELETE', `/automations/${created.body.id}`)).status).to.equal(204);
    expect((await ada.json('GET', `/automations/${created.body.id}`)).status).to.equal(404);
  });
});

describe('With automations: false', function () {
  this.timeout(30_000);

  it('the automations, runs, tick and webhook routes are not mounted (404)', async () => {
    const host = await devHost({
      env: { PORTER_TICK_SECRET: TICK_SECRET, PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET },
      porter: { automations: false },
    });
    try {
      const ada = host.client.as('ada');
      expect((await ada.json('GET', '/automations')).status).to.equal(404);
      expect((await ada.json('GET', '/runs')).status).to.equal(404);
      expect(
        (await fetch(`${host.client.base}/tick`, { method: 'POST', headers: { authorization: `Bearer ${TICK_SECRET}` } })).status,
      ).to.equal(404);
      expect((await fetch(`${host.client.base}/webhooks/demo`, { method: 'POST', body: '{}' })).status).to.equal(404);
      expect((await ada.json('GET', '/status')).body.blocks.automations).to.equal(false);
    } finally {
      await host.close();
    }
  });
});
