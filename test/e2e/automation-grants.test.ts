import { expect } from 'chai';
import { devHost } from '../support/dev-host-fixture.js';
import { until } from '../support/eventually.js';
import { toolPart, type Part, type WireClient } from '../support/turn-client.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';

const TICK_SECRET = 'an-e2e-tick-secret-for-grants-0123';

describe('Automation grants through the development host: the grant an automation asked for is not usable in a chat', function () {
  this.timeout(30_000);
  let host: DevHost & { client: WireClient };
  let ada: WireClient;

  before(async () => {
    host = await devHost({
      env: { PORTER_TICK_SECRET: TICK_SECRET, PORTER_WEBHOOK_DEMO_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    });
    ada = host.client.as('ada');
  });

  after(async () => {
    await host.close();
  });

  /** Fires the schedule (every second) once a new slot has passed; answers the automation's newest run once it settles. */
  async function nextRun(automationId: string): Promise<Part> {
    const before = new Set(((await ada.json('GET', `/runs?automationId=${automationId}`)).body.runs as Part[]).map((r) => r.id));
    // Tick until a new slot is due and the tick starts a run for it (no fixed wait for the clock).
    await until(
      async () => {
        const ticked = await fetch(`${host.client.base}/tick`, { method: 'POST', headers: { authorization: `Bearer ${TICK_SECRET}` } });
        expect(ticked.status).to.equal(200);
        return ((await ada.json('GET', `/runs?automationId=${automationId}`)).body.runs as Part[]).filter((run) => !before.has(run.id))
          .length;
      },
      (started) => started > 0,
      { what: 'a tick that starts a run of the automation' },
    );
    const runs = await until(
      () => ada.json('GET', `/runs?automationId=${automationId}`),
      (r) => (r.body.runs as Part[]).some((run) => !before.has(run.id) && ['succeeded', 'waiting', 'failed'].includes(run.state)),
    );
    const run = (runs.body.runs as Part[]).find((r) => !before.has(r.id))!;
    return (await ada.json('GET', `/runs/${run.id}`)).body;
  }

  /**
   * The development host's own ticker fires the every-second schedule too: on a busy machine a slot
   * can pass between arming and deciding the ask, and that run's call, asked before the grant
   * existed, waits for an approval of its own, holding the automation's queue (one run at a time).
   * Runs begun before the decision are stopped, so the next one starts under the grant.
   */
  async function stopRunsInFlight(automationId: string): Promise<void> {
    const runs = (await ada.json('GET', `/runs?automationId=${automationId}`)).body.runs as Part[];
    for (const run of runs.filter((r) => ['queued', 'running', 'waiting'].includes(r.state))) {
      await ada.json('POST', `/runs/${run.id}/stop`, {});
    }
  }

  const grantsFor = async (automationId: string) =>
    ((await ada.json('GET', '/grants')).body.grants as Part[]).filter((g) => g.appliesTo?.automationId === automationId);

  it("the approved ask covers the automation's runs, a new chat asks, and disarm or delete takes the grant away", async () => {
    const created = await ada.json('POST', '/automations', {
      name: 'Milk reminder',
      trigger: { kind: 'schedule', cron: '* * * * * *' },
      task: { prompt: '/call notes_add {"text":"milk, from the reminder"}', tools: ['notes_add'] },
    });
    expect(created.status).to.equal(201);
    const automationId = created.body.id as string;
    const armed = await ada.json('POST', `/automations/${automationId}/arm`, {});
    const [ask] = armed.body.asks;
    const card = (await ada.json('GET', `/approvals/${ask.approvalId}`)).body;
    expect(card.request.appliesTo).to.deep.equal({ kind: 'automation', automationId, name: 'Milk reminder' });
    expect(card.request.preview).to.contain('only when “Milk reminder” runs');

    // Ticking "always allow this tool" on the ask does not widen it.
    const decided = await ada.json('POST', `/approvals/${ask.approvalId}/decide`, {
      approve: true,
      remember: { scope: 'tool', duration: 'standing' },
    });
    expect(decided.status).to.equal(200);
    await stopRunsInFlight(automationId);
    const grants = (await ada.json('GET', '/grants')).body.grants as Part[];
    expect(grants.filter((g) => g.tool === 'notes_add')).to.have.length(1);
    expect(grants.find((g) => g.tool === 'notes_add')).to.deep.include({
      scope: 'tool',
      duration: 'standing',
      appliesTo: { kind: 'automation', automationId, name: 'Milk reminder' },
    });

    const thread = await ada.newThread();
    const chat = await ada.say(thread, '/call notes_add {"text":"milk, from a chat"}');
    expect(toolPart(chat.message, 'notes_add')!.state).to.equal('approval-requested');

    const run = await nextRun(automationId);
    expect(run.state).to.equal('succeeded');
    expect(run.messages.flatMap((m: { parts: Part[] }) => m.parts).find((p: Part) => p.type === 'tool-notes_add')).to.deep.include({
      state: 'output-available',
    });

    expect((await ada.json('POST', `/automations/${automationId}/disarm`, {})).status).to.equal(200);
    expect(await grantsFor(automationId)).to.deep.equal([]);

    const rearmed = await ada.json('POST', `/automations/${automationId}/arm`, {});
    expect(rearmed.body.asks.map((a: Part) => a.tool)).to.deep.equal(['notes_add']);
    const asking = await nextRun(automationId);
    expect(asking.state).to.equal('waiting');
    const parked = ((await ada.json('GET', '/approvals')).body.approvals as Part[]).find((a) => a.request?.runId === asking.id);
    expect(parked?.request).to.deep.include({ tool: 'notes_add', venue: 'automation', automationId });
    expect((await ada.json('POST', `/runs/${asking.id}/stop`, {})).status).to.equal(200);

    await ada.json('POST', `/approvals/${rearmed.body.asks[0].approvalId}/decide`, { approve: true });
    expect(await grantsFor(automationId)).to.have.length(1);
    expect((await ada.json('DELETE', `/automations/${automationId}`)).status).to.equal(204);
    expect(await grantsFor(automationId)).to.deep.equal([]);
  });

  it('a run of another automation cannot use it', async () => {
    const milk = await ada.json('POST', '/automations', {
      name: 'Milk again',
      trigger: { kind: 'schedule', cron: '* * * * * *' },
      task: { prompt: 'nothing to do', tools: ['notes_add'] },
    });
    const [ask] = (await ada.json('POST', `/automations/${milk.body.id}/arm`, {})).body.asks;
    await ada.json('POST', `/approvals/${ask.approvalId}/decide`, { approve: true });
    expect(await grantsFor(milk.body.id)).to.have.length(1);

    const bread = await ada.json('POST', '/automations', {
      name: 'Bread',
      trigger: { kind: 'schedule', cron: '* * * * * *' },
      task: { prompt: '/call notes_add {"text":"bread"}' },
    });
    expect((await ada.json('POST', `/automations/${bread.body.id}/arm`, {})).body.asks).to.deep.equal([]);
    const run = await nextRun(bread.body.id);
    expect(run.state).to.equal('waiting');
    await ada.json('POST', `/automations/${milk.body.id}/disarm`, {});
    await ada.json('POST', `/automations/${bread.body.id}/disarm`, {});
    await ada.json('POST', `/runs/${run.id}/stop`, {});
  });
});
