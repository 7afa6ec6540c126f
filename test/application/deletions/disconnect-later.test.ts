import { expect } from 'chai';
import type { DeletableKind } from '../../../domain/deletions/pending-deletion.js';
import { StaticToolRegistry } from '../../../adapters/tools/static-tool-registry.js';
import type { Deletable } from '../../../application/deletions/deletable.js';
import { DeleteLater } from '../../../application/deletions/delete-later.js';
import { connectionDeletable } from '../../../application/deletions/family-deletables.js';
import { PendingDeletionBook } from '../../../application/deletions/pending-deletion-book.js';
import { PurgeDueDeletions } from '../../../application/deletions/purge-due-deletions.js';
import { UndoDeletion } from '../../../application/deletions/undo-deletion.js';
import { ToolRunner } from '../../../application/guard/tool-runner.js';
import { ScriptedBroker } from '../../support/scripted-broker.js';
import { guardHarness } from '../../support/guard-harness.js';
import { githubRepos } from '../../support/github-tools.js';
import { RecordingLogger } from '../../support/fakes.js';
import { ada, connectionsHarness } from '../connections/connections-harness.js';

describe('Disconnecting with a way back', () => {
  it('stops the account being used at once, tells the broker only after the window, and an undo uses it again', async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker, { held: (store) => new PendingDeletionBook(store.records('pending-deletions')) });
    const held = new PendingDeletionBook(h.store.records('pending-deletions'));
    const deletables = new Map<DeletableKind, Deletable>([['connection', connectionDeletable({ get: h.get, remove: h.remove })]]);
    const deleteLater = new DeleteLater({ book: held, deletables, clock: h.clock, undoSeconds: 10 });
    const undo = new UndoDeletion(held, deletables, h.clock);
    const purge = new PurgeDueDeletions(held, () => deletables, h.clock, new RecordingLogger());
    const guard = guardHarness({ tools: [] });
    const runner = new ToolRunner(guard.hostAccess, h.gate, guard.egress);
    const tool = new StaticToolRegistry([githubRepos]).get('github_repos')!;
    const call = () =>
      runner.run({
        tool,
        input: {},
        toolCallId: 'call_1',
        principal: ada,
        venue: 'chat',
        presence: 'present',
        session: 'thr_1',
        authority: null,
        signal: new AbortController().signal,
        writeData: () => undefined,
      });

    const { id } = await h.start(ada, 'github');
    broker.consent(id);
    await h.get.execute({ principal: ada, connectionId: id });
    expect((await call()).ok).to.equal(true);

    const pending = await deleteLater.execute({ principal: ada, kind: 'connection', id });
    expect(pending.label).to.equal('github');
    // Not used from this moment, and gone from the list; the broker has not been told.
    expect(await call()).to.deep.include({ ok: false, code: 'conflict' });
    expect((await h.list.execute({ principal: ada })).connections).to.deep.equal([]);
    expect(broker.removed).to.deep.equal([]);

    await undo.execute({ principal: ada, id });
    expect((await call()).ok).to.equal(true);

    await deleteLater.execute({ principal: ada, kind: 'connection', id });
    h.clock.advance(9_999);
    expect(await purge.execute()).to.deep.equal([]);
    expect(broker.removed).to.deep.equal([]);
    h.clock.advance(1);
    expect(await purge.execute()).to.deep.equal([id]);
    expect(broker.removed).to.deep.equal([id]);
    expect(await h.book.find(id)).to.equal(null);
  });
});
