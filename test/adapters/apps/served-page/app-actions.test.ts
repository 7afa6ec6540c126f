import { expect } from 'chai';
import { runAction, type AppActionsDeps } from '../../../../adapters/apps/served-page/app-actions.js';
import type { ServedApp } from '../../../../adapters/apps/served-page/served-app.js';
import { appPageKit } from '../../../../adapters/shared/app-page-kit.js';

const APP: ServedApp = {
  title: 'Todo',
  root: 'root',
  nodes: { root: { type: 'stack' } },
  data: { items: { collection: 'items' } },
  actions: {
    add: { kind: 'put-record', collection: 'items' },
    remove: { kind: 'delete-record', collection: 'items' },
    send: { kind: 'tool', tool: 'gmail_send' },
    total: { kind: 'call', target: 'fn:total' },
    elsewhere: { kind: 'call', target: 'https://example.com' },
  },
};

/** The frame as the page's actions see it: answers per op, and what was asked and read again. */
function frame(answers: Record<string, unknown | Error> = {}) {
  const asked: Array<{ op: string; payload: Record<string, unknown> }> = [];
  const refreshed: string[] = [];
  const deps: AppActionsDeps = {
    app: APP,
    cell: appPageKit().cell,
    ask: async (op, payload = {}) => {
      asked.push({ op, payload });
      const answer = answers[op];
      if (answer instanceof Error) throw answer;
      return answer;
    },
    refresh: async (collection) => {
      refreshed.push(collection);
    },
  };
  return { deps, asked, refreshed };
}

describe('A served page’s buttons and forms run the app’s actions as the chrome does (app-actions)', () => {
  it('adds what a form gathered to the collection, then shows the collection again', async () => {
    const { deps, asked, refreshed } = frame();
    expect(await runAction(deps, 'add', { record: { text: 'Buy bread' } })).to.deep.equal({ done: true });
    expect(asked).to.deep.equal([{ op: 'records.put', payload: { collection: 'items', data: { text: 'Buy bread' } } }]);
    expect(refreshed).to.deep.equal(['items']);
  });

  it('changes the record a button stands by, and deletes it', async () => {
    const { deps, asked } = frame();
    await runAction(deps, 'add', { recordId: 'rec_1' });
    await runAction(deps, 'remove', { recordId: 'rec_1' });
    expect(asked).to.deep.equal([
      { op: 'records.put', payload: { collection: 'items', recordId: 'rec_1', data: {} } },
      { op: 'records.delete', payload: { collection: 'items', recordId: 'rec_1' } },
    ]);
  });

  it('sends nothing for an empty form, a delete of no record, or an action the app does not have', async () => {
    const { deps, asked } = frame();
    expect(await runAction(deps, 'add', { record: {} })).to.deep.equal({ done: false });
    expect(await runAction(deps, 'remove', {})).to.deep.equal({ done: false });
    expect(await runAction(deps, 'launch', { record: { a: 1 } })).to.deep.equal({ done: false });
    expect(await runAction(deps, undefined, { record: { a: 1 } })).to.deep.equal({ done: false });
    expect(asked).to.deep.equal([]);
  });

  it('says a tool action ran, with its output', async () => {
    const { deps, asked } = frame({ action: { status: 'ran', output: { sent: true } } });
    expect(await runAction(deps, 'send', { record: { to: 'sam@example.com' } })).to.deep.equal({
      done: true,
      notice: { text: 'Done: {"sent":true}', tone: 'info' },
    });
    expect(asked).to.deep.equal([{ op: 'action', payload: { action: 'send', input: { to: 'sam@example.com' } } }]);
  });

  it('says a tool action waits for the person’s approval, and where to answer it', async () => {
    const { deps } = frame({ action: { status: 'parked', preview: 'Send an email to Sam' } });
    const outcome = await runAction(deps, 'send', { recordId: 'rec_1' });
    expect(outcome).to.deep.equal({
      done: true,
      notice: { text: 'Waiting for your approval: Send an email to Sam. Answer it in Porter’s Approvals.', tone: 'info' },
    });
  });

  it('says what the app’s own function answered, cut to 500 characters, or Done when it answered nothing', async () => {
    const long = frame({ fn: 'x'.repeat(600) });
    const outcome = await runAction(long.deps, 'total', { record: { a: 1 } });
    expect(outcome.notice?.text).to.have.length(500);
    expect(long.asked).to.deep.equal([{ op: 'fn', payload: { name: 'total', input: { a: 1 } } }]);
    expect((await runAction(frame({ fn: null }).deps, 'total', {})).notice).to.deep.equal({ text: 'Done.', tone: 'info' });
  });

  it('calls nothing but the app’s own functions', async () => {
    const { deps, asked } = frame();
    expect(await runAction(deps, 'elsewhere', {})).to.deep.equal({ done: true });
    expect(asked).to.deep.equal([]);
  });

  it('says why when the frame refuses, and counts the action as not done (the form keeps its fields)', async () => {
    const { deps, refreshed } = frame({ 'records.put': new Error('You may not change this app’s records.') });
    expect(await runAction(deps, 'add', { record: { text: 'x' } })).to.deep.equal({
      done: false,
      notice: { text: 'You may not change this app’s records.', tone: 'error' },
    });
    expect(refreshed).to.deep.equal([]);
  });
});
