import { expect } from 'chai';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';
import { appsHarness } from '../../support/apps-harness.js';
import { toolDocument } from '../../support/apps-documents.js';
import { doorHarness } from '../../support/door-harness.js';
import { SequentialIds } from '../../support/fakes.js';
import { RunAppAction } from '../../../application/apps/run-app-action.js';
import type { AppGenerator } from '../../../ports/app-generator.js';
import type { StoredGrant } from '../../../domain/guard/grant.js';
import { ADA_STANDS_FOR_NOTES } from '../../support/guard-builders.js';

type Harness = ReturnType<typeof automationsHarness>;

/** An automation whose task calls notes_add, armed, its one ask approved (with `remember` if given). */
async function armedMilkReminder(
  h: Harness,
  options: { name?: string; text?: string; remember?: { scope: 'tool' | 'exact'; duration: 'session' | 'standing' } } = {},
) {
  const automation = await h.automation({
    name: options.name ?? 'Milk reminder',
    prompt: `/call notes_add {"text":"${options.text ?? 'buy milk'}"}`,
    tools: ['notes_add'],
  });
  const { asks } = await h.arm.execute({ principal: ada, automationId: automation.id });
  expect(asks.map((a) => a.tool)).to.deep.equal(['notes_add']);
  await h.decide.execute({
    principal: ada,
    approvalId: asks[0]!.approvalId,
    approve: true,
    ...(options.remember ? { remember: options.remember } : {}),
  });
  return { automation, ask: asks[0]! };
}

/** The next schedule slot fires; answers the state of the named automation's run once executed. */
async function runOf(h: Harness, automationId: string): Promise<{ runId: string; state: string }> {
  h.clock.advance(61_000);
  await h.tick.execute();
  await h.runQueued();
  const [run] = (await h.listRuns.execute({ principal: ada, automationId })).runs;
  return { runId: run!.id, state: run!.state };
}

const activeGrants = async (h: Harness) => (await h.listGrants.execute({ principal: ada })).grants;

describe('Automation grants: a standing grant an automation asked for covers its runs only', () => {
  it('shows on the ask and in GET /grants that it applies only when that automation runs', async () => {
    const h = automationsHarness({ tools: [countingTool('notes_add', 'write').tool] });
    const automation = await h.automation({ name: 'Milk reminder', prompt: 'x', tools: ['notes_add'] });
    const { asks } = await h.arm.execute({ principal: ada, automationId: automation.id });
    const ask = await h.get.execute({ principal: ada, approvalId: asks[0]!.approvalId });
    expect(ask.request).to.deep.include({
      automationId: automation.id,
      appliesTo: { kind: 'automation', automationId: automation.id, name: 'Milk reminder' },
    });
    expect(ask.request!.preview).to.contain('only when “Milk reminder” runs');

    await h.decide.execute({ principal: ada, approvalId: asks[0]!.approvalId, approve: true });
    const [grant, ...rest] = await activeGrants(h);
    expect(rest).to.deep.equal([]);
    expect(grant).to.deep.include({
      tool: 'notes_add',
      scope: 'tool',
      duration: 'standing',
      appliesTo: { kind: 'automation', automationId: automation.id, name: 'Milk reminder' },
      origin: { kind: 'automation', automationId: automation.id, approvalId: asks[0]!.approvalId },
    });
  });

  it('is not usable in a chat, an app or the door; a run of the automation uses it without asking', async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    const { automation } = await armedMilkReminder(h);

    expect(await h.call('notes_add', { text: 'from a new chat' }, { session: 'thr_new', threadId: 'thr_new' })).to.deep.include({
      status: 'parked',
    });
    expect(await h.call('notes_add', { text: 'from an app' }, { venue: 'app', session: 'app_1' })).to.deep.include({ status: 'parked' });
    expect(
      await h.call('notes_add', { text: 'from the door' }, { venue: 'mcp', presence: 'away', session: 'door_1', evidence: 'consent_1' }),
    ).to.deep.include({ status: 'parked' });
    expect(await h.call('notes_add', { text: 'from the door' }, { venue: 'mcp', presence: 'away', session: 'door_1' })).to.deep.include({
      status: 'parked',
    });
    // Naming the automation does not make a call one of its runs: only venue `automation` does.
    const named = { automation: { automationId: automation.id } };
    expect(await h.call('notes_add', { text: 'app naming it' }, { venue: 'app', session: 'app_1', ...named })).to.deep.include({
      status: 'parked',
    });
    expect(await h.call('notes_add', { text: 'chat naming it' }, named)).to.deep.include({ status: 'parked' });
    expect(notes.calls).to.deep.equal([]);

    const run = await runOf(h, automation.id);
    expect(run.state).to.equal('succeeded');
    expect(notes.calls).to.deep.equal([{ text: 'buy milk' }]);
    const pending = (await h.list.execute({ principal: ada })).approvals;
    expect(pending.filter((a) => a.request?.runId === run.runId)).to.deep.equal([]);
  });

  it('is not usable by a run of another automation, and arming that one asks for its own', async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    const { automation: milk } = await armedMilkReminder(h);
    // Another automation whose task calls the same tool without naming it: arming raises no ask.
    const bread = await h.automation({ name: 'Bread reminder', prompt: '/call notes_add {"text":"buy bread"}' });
    await h.arm.execute({ principal: ada, automationId: bread.id });

    const run = await runOf(h, bread.id);
    expect(run.state).to.equal('waiting');
    const parked = (await h.list.execute({ principal: ada })).approvals.filter((a) => a.request?.runId === run.runId);
    expect(parked).to.have.length(1);
    expect(parked[0]!.request).to.deep.include({
      automationId: bread.id,
      appliesTo: { kind: 'automation', automationId: bread.id, name: 'Bread reminder' },
    });
    expect(notes.calls.filter((c) => (c as { text: string }).text === 'buy bread')).to.deep.equal([]);
    expect(notes.calls).to.deep.include({ text: 'buy milk' });

    const cheese = await h.automation({ name: 'Cheese reminder', prompt: 'x', tools: ['notes_add'] });
    const { asks } = await h.arm.execute({ principal: ada, automationId: cheese.id });
    expect(
      asks.map((a) => a.tool),
      "milk's grant does not stand for cheese",
    ).to.deep.equal(['notes_add']);
    expect((await activeGrants(h)).map((g) => g.appliesTo)).to.deep.equal([
      { kind: 'automation', automationId: milk.id, name: 'Milk reminder' },
    ]);
  });

  it('dies when the automation is disarmed: the run asks again, and re-arming asks again', async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    const { automation } = await armedMilkReminder(h);
    expect(await activeGrants(h)).to.have.length(1);

    await h.disarm.execute({ principal: ada, automationId: automation.id });
    expect(await activeGrants(h)).to.deep.equal([]);
    const revoked = (await h.auditLog.list('ada', { limit: 100 })).events.filter((e) => e.action === 'grant.revoked');
    expect(revoked.map((e) => e.outcome)).to.deep.equal(['automation-disarmed']);

    const { asks } = await h.arm.execute({ principal: ada, automationId: automation.id });
    expect(asks.map((a) => a.tool)).to.deep.equal(['notes_add']);
    const run = await runOf(h, automation.id);
    expect(run.state).to.equal('waiting');
    expect(notes.calls).to.deep.equal([]);
  });

  it('dies when the automation is deleted', async () => {
    const h = automationsHarness({ tools: [countingTool('notes_add', 'write').tool] });
    const { automation } = await armedMilkReminder(h);
    await h.remove.execute({ principal: ada, automationId: automation.id });
    expect(await activeGrants(h)).to.deep.equal([]);
    expect(
      (await h.auditLog.list('ada', { limit: 100 })).events.filter((e) => e.action === 'grant.revoked').map((e) => e.outcome),
    ).to.deep.equal(['automation-deleted']);
  });

  it('dies with a denial of another of its asks, which disarms the automation', async () => {
    const h = automationsHarness({ tools: [countingTool('notes_add', 'write').tool, countingTool('notes_clear', 'destructive').tool] });
    const automation = await h.automation({ name: 'Tidy', prompt: 'x', tools: ['notes_add', 'notes_clear'] });
    const { asks } = await h.arm.execute({ principal: ada, automationId: automation.id });
    await h.decide.execute({ principal: ada, approvalId: asks[0]!.approvalId, approve: true });
    expect(await activeGrants(h)).to.have.length(1);
    await h.decide.execute({ principal: ada, approvalId: asks[1]!.approvalId, approve: false });
    expect((await h.automations.find(automation.id))!.automation.armed).to.equal(false);
    expect(await activeGrants(h)).to.deep.equal([]);
  });

  it('does not outlive a disarm that landed while its ask was being approved', async () => {
    const h = automationsHarness({ tools: [countingTool('notes_add', 'write').tool] });
    const automation = await h.automation({ name: 'Milk reminder', prompt: 'x', tools: ['notes_add'] });
    const { asks } = await h.arm.execute({ principal: ada, automationId: automation.id });
    // The disarm's read of the grants came before the approval's write: only the flag changed.
    await h.automations.update(automation.id, (a) => a.disarm(h.clock.now().toISOString()));
    await h.decide.execute({ principal: ada, approvalId: asks[0]!.approvalId, approve: true });
    expect(await activeGrants(h)).to.deep.equal([]);
  });

  it('cannot be widened by a ticked "remember": the ask grants the tool to its automation only', async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    const { automation, ask } = await armedMilkReminder(h, { remember: { scope: 'tool', duration: 'standing' } });
    const grants = await activeGrants(h);
    expect(grants).to.have.length(1);
    expect(grants[0]!.appliesTo).to.deep.equal({ kind: 'automation', automationId: automation.id, name: 'Milk reminder' });
    expect(await h.call('notes_add', { text: 'chat' })).to.deep.include({ status: 'parked' });
    const decided = (await h.auditLog.list('ada', { limit: 100 })).events.find(
      (e) => e.action === 'approval.decided' && (e.details as { approvalId?: string }).approvalId === ask.approvalId,
    );
    expect(decided?.details).to.not.have.property('remember');

    for (const remember of [
      { scope: 'exact', duration: 'standing' },
      { scope: 'tool', duration: 'session' },
    ] as const) {
      const other = await armedMilkReminder(h, { name: `Reminder ${remember.scope}-${remember.duration}`, remember });
      const mine = (await activeGrants(h)).filter(
        (g) => g.appliesTo.kind === 'automation' && g.appliesTo.automationId === other.automation.id,
      );
      expect(mine.map((g) => ({ scope: g.scope, duration: g.duration }))).to.deep.equal([{ scope: 'tool', duration: 'standing' }]);
    }
  });

  it('narrows a remembered yes on a call a run parked to that automation', async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ name: 'Jot', prompt: '/call notes_add {"text":"jot"}' });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    const first = await runOf(h, automation.id);
    expect(first.state).to.equal('waiting');
    const [parked] = (await h.list.execute({ principal: ada })).approvals;
    await h.decide.execute({ principal: ada, approvalId: parked!.id, approve: true, remember: { scope: 'tool', duration: 'standing' } });
    await h.runQueued();
    expect(notes.calls).to.have.length(1);

    expect((await activeGrants(h)).map((g) => ({ appliesTo: g.appliesTo, origin: g.origin }))).to.deep.equal([
      { appliesTo: { kind: 'automation', automationId: automation.id, name: 'Jot' }, origin: { kind: 'approval', approvalId: parked!.id } },
    ]);
    expect(await h.call('notes_add', { text: 'chat' })).to.deep.include({ status: 'parked' });
    expect((await runOf(h, automation.id)).state).to.equal('succeeded');
    expect(notes.calls).to.have.length(2);
  });

  it("is not usable through the door's tool call or an app's tool action", async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    await armedMilkReminder(h);

    const door = doorHarness({ tools: [notes.tool], store: h.store });
    const caller = { subject: 'ada', clientId: 'mcpc_client00001', scope: 'mcp', evidence: 'consent:ada-claude', principal: ada };
    const through = await door.transport.callTool.execute({
      caller,
      session: 'ses_door0000001',
      tool: 'notes_add',
      input: { text: 'door' },
      signal: new AbortController().signal,
    });
    expect(through.kind).to.equal('parked');

    const document = toolDocument();
    const writes: AppGenerator = {
      async *create() {
        yield document;
      },
      async *edit() {
        yield document;
      },
    };
    const apps = appsHarness({ store: h.store, hostTools: [notes.tool], generator: writes });
    const app = await apps.apps.createApp.execute({ principal: ada, prompt: 'a notes board' });
    const action = await new RunAppAction(apps.book, apps.guard, new SequentialIds()).execute({
      principal: ada,
      appId: app.id,
      action: 'add-note',
      input: { text: 'app' },
    });
    expect(action.status).to.equal('parked');
    expect(notes.calls).to.deep.equal([]);
  });

  describe('grants stored before grants said where they apply', () => {
    const legacy = (id: string, origin: StoredGrant['origin']): StoredGrant => ({
      id,
      ...ADA_STANDS_FOR_NOTES,
      origin,
      createdAt: '2026-05-01T00:00:00.000Z',
      revokedAt: null,
    });
    const store = (h: Harness, grant: StoredGrant) =>
      h.store
        .records<StoredGrant>('grants')
        .put({ id: grant.id, data: grant, refs: { subject: grant.subject, tool: grant.tool, active: 'yes' } });

    it('reads a row an arming ask made as applying to that automation only', async () => {
      const notes = countingTool('notes_add', 'write');
      const h = automationsHarness({ tools: [notes.tool] });
      const automation = await h.automation({ name: 'Old reminder', prompt: '/call notes_add {"text":"old"}', tools: ['notes_add'] });
      await store(h, legacy('grt_legacy000001', { kind: 'automation', automationId: automation.id, approvalId: 'apr_legacy' }));

      expect((await activeGrants(h))[0]).to.deep.include({
        id: 'grt_legacy000001',
        appliesTo: { kind: 'automation', automationId: automation.id },
      });
      expect(await h.call('notes_add', { text: 'chat' })).to.deep.include({ status: 'parked' });
      // Armed before this change: the grant it was asked for still serves it.
      await h.automations.update(automation.id, (a) => a.arm(h.clock.now().toISOString()));
      expect((await runOf(h, automation.id)).state).to.equal('succeeded');
      expect(notes.calls).to.deep.equal([{ text: 'old' }]);
    });

    it('keeps a row a person remembered in a chat applying anywhere', async () => {
      const notes = countingTool('notes_add', 'write');
      const h = automationsHarness({ tools: [notes.tool] });
      await store(h, legacy('grt_legacy000002', { kind: 'approval', approvalId: 'apr_chat' }));
      expect((await activeGrants(h))[0]!.appliesTo).to.deep.equal({ kind: 'anywhere' });
      expect(await h.call('notes_add', { text: 'chat' })).to.deep.include({ status: 'ran', because: 'grant' });
    });

    it('revokes a legacy row when its automation is disarmed, and when a disarmed one is armed again', async () => {
      const h = automationsHarness({ tools: [countingTool('notes_add', 'write').tool] });
      const armed = await h.automation({ name: 'Armed', prompt: 'x', tools: ['notes_add'] });
      await h.automations.update(armed.id, (a) => a.arm(h.clock.now().toISOString()));
      const idle = await h.automation({ name: 'Idle', prompt: 'x', tools: ['notes_add'] });
      await store(h, legacy('grt_legacy000003', { kind: 'automation', automationId: armed.id, approvalId: 'apr_a' }));
      await store(h, legacy('grt_legacy000004', { kind: 'automation', automationId: idle.id, approvalId: 'apr_b' }));

      await h.disarm.execute({ principal: ada, automationId: armed.id });
      expect((await activeGrants(h)).map((g) => g.id)).to.deep.equal(['grt_legacy000004']);
      const { asks } = await h.arm.execute({ principal: ada, automationId: idle.id });
      expect(asks.map((a) => a.tool)).to.deep.equal(['notes_add']);
      expect(await activeGrants(h)).to.deep.equal([]);
    });

    it('turns a legacy arming ask still pending into a grant for its automation', async () => {
      const h = automationsHarness({ tools: [countingTool('notes_add', 'write').tool] });
      const automation = await h.automation({ name: 'Pending', prompt: 'x', tools: ['notes_add'] });
      const { asks } = await h.arm.execute({ principal: ada, automationId: automation.id });
      const approvals = h.store.records<{ request: Record<string, unknown> }>('approvals');
      const record = (await approvals.get(asks[0]!.approvalId))!;
      const { appliesTo: _dropped, ...request } = record.data.request;
      await approvals.put({ id: record.id, data: { ...record.data, request }, refs: record.refs });

      await h.decide.execute({
        principal: ada,
        approvalId: asks[0]!.approvalId,
        approve: true,
        remember: { scope: 'tool', duration: 'standing' },
      });
      expect((await activeGrants(h)).map((g) => g.appliesTo)).to.deep.equal([{ kind: 'automation', automationId: automation.id }]);
    });
  });
});
