import { expect } from 'chai';
import { devHost } from '../support/dev-host-fixture.js';
import type { WireClient } from '../support/turn-client.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';

type Part = Record<string, any>;

/** An app made the way a person would: from a prompt, then edits naming the demo host's tools. */
async function notesApp(client: WireClient): Promise<string> {
  const app = (await client.json('POST', '/apps', { prompt: 'notes board' })).body;
  for (const instruction of ['add a form for the tool notes_add', 'add a button for the tool notes_list']) {
    const edited = await client.json('POST', `/apps/${app.id}/edit`, { instruction });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
  }
  return app.id as string;
}

describe('Apps running host tools through the development host', function () {
  this.timeout(60_000);
  let host: DevHost & { client: WireClient };

  before(async () => {
    host = await devHost();
  });

  after(async () => {
    await host.close();
  });

  it('wires the demo tools into the app: a form with a field per input, and a button', async () => {
    const ada = host.client.as('ada');
    const appId = await notesApp(ada);
    const { document } = (await ada.json('GET', `/apps/${appId}`)).body;
    expect(document.actions).to.deep.include({
      'run-notes_add': { kind: 'tool', tool: 'notes_add' },
      'run-notes_list': { kind: 'tool', tool: 'notes_list' },
    });
    const form = Object.values(document.nodes as Record<string, Part>).find((n) => n.type === 'form' && n.action === 'run-notes_add')!;
    expect(form.children.map((id: string) => document.nodes[id].props.name ?? document.nodes[id].type)).to.deep.equal(['text', 'button']);
    expect(
      Object.values(document.nodes as Record<string, Part>).some((n) => n.type === 'button' && n.action === 'run-notes_list'),
    ).to.equal(true);

    // A tool the host does not have is not wired in.
    const unknown = await ada.json('POST', `/apps/${appId}/edit`, { instruction: 'add a form for the tool notes_export' });
    expect(unknown.body.app.document.actions, 'the actions are as they were').to.deep.equal(document.actions);
  });

  it('runs a read at once, parks a write, runs it exactly once after approval, and asks again after that', async () => {
    const bea = host.client.as('bea');
    const appId = await notesApp(bea);
    const act = (action: string, input: unknown) => bea.json('POST', `/apps/${appId}/actions/${action}`, { input });

    const listed = await act('run-notes_list', {});
    expect(listed.status).to.equal(200);
    expect(listed.body).to.deep.equal({ status: 'ran', output: { notes: [] } });

    const parked = await act('run-notes_add', { text: 'buy oat milk' });
    expect(parked.status).to.equal(202);
    expect(parked.body).to.deep.include({ status: 'parked', risk: 'write', preview: 'Add the note “buy oat milk”' });
    expect(Object.keys(parked.body).sort()).to.deep.equal(['approvalId', 'preview', 'risk', 'status', 'toolCallId']);
    const pending = (await bea.json('GET', '/approvals')).body.approvals as Part[];
    expect(pending.map((a) => [a.id, a.request.venue, a.request.tool])).to.deep.equal([[parked.body.approvalId, 'app', 'notes_add']]);

    const waiting = await act('run-notes_add', { text: 'buy oat milk' });
    expect(waiting.status, 'the same call again waits on the same approval').to.equal(202);
    expect(waiting.body.approvalId).to.equal(parked.body.approvalId);

    expect((await bea.json('POST', `/approvals/${parked.body.approvalId}/decide`, { approve: true })).status).to.equal(200);
    const [first, second] = await Promise.all([
      act('run-notes_add', { text: 'buy oat milk' }),
      act('run-notes_add', { text: 'buy oat milk' }),
    ]);
    const ran = [first, second].filter((r) => r.status === 200);
    expect(ran.map((r) => r.body)).to.deep.equal([{ status: 'ran', output: { added: 'buy oat milk', count: 1 } }]);
    expect((await act('run-notes_list', {})).body.output).to.deep.equal({ notes: ['buy oat milk'] });
    expect((await bea.json('GET', `/approvals/${parked.body.approvalId}`)).body.state).to.equal('executed');

    const third = await act('run-notes_add', { text: 'buy oat milk' });
    expect(third.status, 'after it ran, the same call asks again').to.equal(202);
    expect(third.body.approvalId).to.not.equal(parked.body.approvalId);
  });

  it('never runs a denied call, and answers refusals in the error envelope', async () => {
    const cy = host.client.as('cy');
    const appId = await notesApp(cy);
    const act = (action: string, body: unknown, client = cy) => client.json('POST', `/apps/${appId}/actions/${action}`, body);

    const parked = await act('run-notes_add', { input: { text: 'never' } });
    expect((await cy.json('POST', `/approvals/${parked.body.approvalId}/decide`, { approve: false })).status).to.equal(200);
    expect((await act('run-notes_add', { input: { text: 'never' } })).status).to.equal(202);
    expect((await act('run-notes_list', {})).body.output).to.deep.equal({ notes: [] });

    const invalid = await act('run-notes_add', { input: {} });
    expect(invalid.status).to.equal(400);
    expect(invalid.body.error.code).to.equal('validation');
    expect(invalid.body.error.message).to.contain('notes_add');
    const badBody = await act('run-notes_add', { input: { text: 'x' }, extra: true });
    expect(badBody.status).to.equal(400);
    expect(badBody.body.error.code).to.equal('validation');
    expect((await act('no-such-action', {})).body.error.code).to.equal('not-found');

    const other = await act('run-notes_list', {}, host.client.as('dan'));
    expect(other.status, "someone else's app is not revealed").to.equal(404);
    expect(other.body.error.code).to.equal('not-found');

    const form = await fetch(`${cy.base}/apps/${appId}/actions/run-notes_list`, {
      method: 'POST',
      headers: { cookie: 'porter_demo_user=cy', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'input=1',
    });
    expect(form.status, 'the CSRF floor holds for actions').to.equal(415);
  });

  it('lets a host policy block a tool when an app runs it', async () => {
    const strict = await devHost({ porter: { policy: [{ tool: 'notes_list', venue: 'app', action: 'block' }] } });
    try {
      const eve = strict.client.as('eve');
      const appId = await notesApp(eve);
      const blocked = await eve.json('POST', `/apps/${appId}/actions/run-notes_list`, { input: {} });
      expect(blocked.status).to.equal(403);
      expect(blocked.body.error).to.deep.include({ code: 'forbidden', details: { status: 'blocked', tool: 'notes_list' } });
      const thread = await eve.newThread();
      const chat = await eve.say(thread, '/call notes_list {}');
      expect(chat.message.parts.find((p) => p.type === 'tool-notes_list')).to.deep.include({ state: 'output-available' });
    } finally {
      await strict.close();
    }
  });
});
