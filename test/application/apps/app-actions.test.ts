import { expect } from 'chai';
import type { AppGenerator } from '../../../ports/app-generator.js';
import type { AppDocument } from '../../../domain/apps/app-document.js';
import type { Principal } from '../../../domain/principal.js';
import type { PolicyRule } from '../../../domain/guard/policy.js';
import { RunAppAction } from '../../../application/apps/run-app-action.js';
import { appsHarness } from '../../support/apps-harness.js';
import { toolDocument } from '../../support/apps-documents.js';
import { ada, bob, countingTool } from '../../support/guard-harness.js';
import { SequentialIds } from '../../support/fakes.js';
import { recordingHost } from '../../support/recording-host.js';

/** A generator that writes the given document, whatever it is asked. */
const writes = (document: AppDocument): AppGenerator => ({
  async *create() {
    yield document;
  },
  async *edit() {
    yield document;
  },
});

function failingTool(name: string) {
  return {
    name,
    description: 'always fails',
    inputSchema: { type: 'object' },
    risk: 'read' as const,
    async execute(): Promise<never> {
      throw new Error('the notes service is down');
    },
  };
}

async function board(options: { document?: AppDocument; policy?: PolicyRule[]; canShareApps?: (principal: Principal) => boolean } = {}) {
  const add = countingTool('notes_add', 'write');
  const list = countingTool('notes_list', 'read');
  const clear = countingTool('notes_clear', 'destructive');
  const h = appsHarness({
    generator: writes(options.document ?? toolDocument()),
    hostTools: [add.tool, list.tool, clear.tool, failingTool('notes_sync')],
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.canShareApps ? { canShareApps: options.canShareApps } : {}),
  });
  const actions = new RunAppAction(h.book, h.guard, new SequentialIds());
  const app = await h.apps.createApp.execute({ principal: ada, prompt: 'a notes board' });
  const run = (action: string, input: Record<string, unknown> = {}, principal: Principal = ada, appId = app.id) =>
    actions.execute({ principal, appId, action, input });
  return { h, app, run, add, list, clear };
}

describe('RunAppAction: an app runs host tools through the guard (venue app)', () => {
  it('runs a read tool at once, as the person, with what the page sent', async () => {
    const { run, list } = await board();
    const answer = await run('list-notes', { filter: 'today' });
    expect(answer).to.deep.equal({ status: 'ran', output: { done: 'notes_list', input: { filter: 'today' } } });
    expect(list.calls).to.deep.equal([{ filter: 'today' }]);
  });

  it('parks a write, naming the approval the person answers; the same call retried waits on the same approval', async () => {
    const { h, run, add, app } = await board();
    const parked = await run('add-note', { text: 'buy milk' });
    expect(parked).to.deep.include({ status: 'parked', risk: 'write', preview: 'notes_add {"text":"buy milk"}' });
    if (parked.status !== 'parked') return;
    expect(parked.approvalId).to.match(/^apr_/);
    expect(parked.toolCallId).to.match(/^call_/);
    const again = await run('add-note', { text: 'buy milk' });
    expect(again).to.deep.include({ status: 'parked', approvalId: parked.approvalId, toolCallId: parked.toolCallId });
    expect(add.calls).to.deep.equal([]);
    const view = await h.get.execute({ principal: ada, approvalId: parked.approvalId });
    expect(view.request).to.deep.include({ tool: 'notes_add', venue: 'app', input: { text: 'buy milk' } });
    expect(view.request?.preview).to.equal('notes_add {"text":"buy milk"}');
    // The app is the session the approval belongs to.
    const stored = (await h.store.records<{ request: { session: string; presence: string } }>('approvals').get(parked.approvalId))!.data;
    expect(stored.request).to.deep.include({ session: app.id, presence: 'present' });
  });

  it('runs an approved call exactly once on retry, however many retries race; the next identical call asks again', async () => {
    const { h, run, add } = await board();
    const parked = await run('add-note', { text: 'buy milk' });
    if (parked.status !== 'parked') throw new Error('expected a parked call');
    await h.decide.execute({ principal: ada, approvalId: parked.approvalId, approve: true });

    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => run('add-note', { text: 'buy milk' })));
    // A retry that finds the call still running answers 409 (conflict) instead of waiting.
    for (const refused of settled.filter((r) => r.status === 'rejected'))
      expect((refused.reason as { code?: string }).code).to.equal('conflict');
    const retries = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const ran = retries.filter((r) => r.status === 'ran');
    // Every racing retry is the same call: those that lost the race report its one execution (or
    // that it is still running); none parks a new approval.
    expect(ran.length).to.be.at.least(1);
    for (const each of ran) expect(each).to.deep.equal({ status: 'ran', output: { done: 'notes_add', input: { text: 'buy milk' } } });
    expect(retries.filter((r) => r.status === 'parked')).to.have.length(0);
    expect(add.calls, 'the tool ran once').to.have.length(1);
    expect((await h.get.execute({ principal: ada, approvalId: parked.approvalId })).state).to.equal('executed');

    const third = await run('add-note', { text: 'buy milk' });
    expect(third.status).to.equal('parked');
    if (third.status === 'parked') expect(third.approvalId).to.not.equal(parked.approvalId);
    expect(add.calls).to.have.length(1);
  });

  it('never runs a denied call: a retry asks again', async () => {
    const { h, run, add } = await board();
    const parked = await run('add-note', { text: 'spam' });
    if (parked.status !== 'parked') throw new Error('expected a parked call');
    await h.decide.execute({ principal: ada, approvalId: parked.approvalId, approve: false });
    const retry = await run('add-note', { text: 'spam' });
    expect(retry.status).to.equal('parked');
    if (retry.status === 'parked') expect(retry.approvalId).to.not.equal(parked.approvalId);
    expect(add.calls).to.deep.equal([]);
  });

  it('remembers "for this app": a session grant covers this app\'s calls and no other app\'s', async () => {
    const { h, run, add } = await board();
    const parked = await run('add-note', { text: 'one' });
    if (parked.status !== 'parked') throw new Error('expected a parked call');
    await h.decide.execute({
      principal: ada,
      approvalId: parked.approvalId,
      approve: true,
      remember: { scope: 'tool', duration: 'session' },
    });
    expect(await run('add-note', { text: 'two' })).to.deep.equal({ status: 'ran', output: { done: 'notes_add', input: { text: 'two' } } });
    const other = await h.apps.createApp.execute({ principal: ada, prompt: 'another board' });
    expect((await run('add-note', { text: 'three' }, ada, other.id)).status).to.equal('parked');
    expect(add.calls).to.deep.equal([{ text: 'two' }]);
  });

  it("reaches the host's API with the person's own credentials, as the chat does", async () => {
    const host = await recordingHost();
    try {
      const listsFromHost = {
        name: 'notes_list',
        description: 'lists notes from the host',
        inputSchema: { type: 'object' },
        risk: 'read' as const,
        async execute(_input: unknown, context: { hostFetch(path: string): Promise<Response> }) {
          return (await context.hostFetch('/api/notes')).json();
        },
      };
      const h = appsHarness({ generator: writes(toolDocument()), hostTools: [listsFromHost], baseUrl: host.url });
      const app = await h.apps.createApp.execute({ principal: ada, prompt: 'notes' });
      const answer = await new RunAppAction(h.book, h.guard, new SequentialIds()).execute({
        principal: ada,
        appId: app.id,
        action: 'list-notes',
        input: {},
        credentials: { cookie: 'sid=abc', authorization: 'Bearer user-token' },
      });
      expect(answer).to.deep.equal({ status: 'ran', output: { ok: true } });
      expect(host.requests.map((r) => [r.url, r.headers.cookie, r.headers.authorization])).to.deep.equal([
        ['/api/notes', 'sid=abc', 'Bearer user-token'],
      ]);
    } finally {
      await host.close();
    }
  });

  it("lets the document's fixed values win over what the page sends", async () => {
    const { h, run } = await board();
    const parked = await run('clear-notes', { confirm: false, reason: 'spring cleaning' });
    expect(parked).to.deep.include({ status: 'parked', risk: 'destructive' });
    if (parked.status !== 'parked') return;
    expect((await h.get.execute({ principal: ada, approvalId: parked.approvalId })).request?.input).to.deep.equal({
      confirm: true,
      reason: 'spring cleaning',
    });
  });

  it("answers not-found for someone else's app and for an action the app does not have", async () => {
    const { run, list, app } = await board();
    for (const attempt of [
      run('list-notes', {}, bob),
      run('list-notes', {}, { subject: 'anon:x', kind: 'user', anonymous: true } as Principal),
      run('nowhere'),
      run('list-notes', {}, ada, 'app_0000000000missing'),
    ]) {
      expect((await attempt.catch((e) => e)).code).to.equal('not-found');
    }
    expect(list.calls).to.deep.equal([]);
    expect(app.scope).to.equal('owner');
  });

  it("lets anyone signed in run a shared app's actions, as themselves", async () => {
    const { run, list } = await board({ document: { ...toolDocument(), scope: 'shared' }, canShareApps: (p) => p.subject === 'ada' });
    expect((await run('list-notes', { who: 'bob' }, bob)).status).to.equal('ran');
    expect(list.calls).to.deep.equal([{ who: 'bob' }]);
    const anonymous = { subject: 'anon:x', kind: 'user', anonymous: true } as Principal;
    expect((await run('list-notes', {}, anonymous).catch((e) => e)).code).to.equal('not-found');
  });

  it('refuses an action that is not a tool, a tool the host lacks, a policy block and a failing tool, each with its code', async () => {
    const document = toolDocument({ list: 'notes_gone' });
    const withExtras: AppDocument = {
      ...document,
      nodes: {
        ...document.nodes,
        root: { ...document.nodes.root!, children: [...document.nodes.root!.children!, 'save', 'sync'] },
        save: { type: 'button', action: 'save' },
        sync: { type: 'button', action: 'sync' },
      },
      data: { items: { collection: 'items' } },
      actions: { ...document.actions, save: { kind: 'put-record', collection: 'items' }, sync: { kind: 'tool', tool: 'notes_sync' } },
    };
    const { run, clear } = await board({ document: withExtras, policy: [{ tool: 'notes_clear', venue: 'app', action: 'block' }] });
    expect((await run('save').catch((e) => e)).code).to.equal('conflict');
    const missing = await run('list-notes').catch((e) => e);
    expect(missing.code).to.equal('validation');
    expect(missing.message).to.contain('There is no tool named "notes_gone"');
    const blocked = await run('clear-notes').catch((e) => e);
    expect(blocked.code).to.equal('forbidden');
    expect(blocked.details).to.deep.include({ status: 'blocked', tool: 'notes_clear' });
    expect(clear.calls).to.deep.equal([]);
    const failed = await run('sync').catch((e) => e);
    expect(failed.code).to.equal('unavailable');
    expect(failed.message).to.equal('notes_sync failed: the notes service is down');
  });
});
