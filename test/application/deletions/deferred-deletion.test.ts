import { expect } from 'chai';
import type { StoredGrant } from '../../../domain/guard/grant.js';
import type { Principal } from '../../../domain/principal.js';
import type { DeletableKind } from '../../../domain/deletions/pending-deletion.js';
import type { Store } from '../../../ports/store.js';
import { StoreAuditLog } from '../../../adapters/audit/store-audit-log.js';
import { UlidIds } from '../../../adapters/runtime/ulid-ids.js';
import { AuditTrail } from '../../../application/audit/audit-trail.js';
import { GrantBook } from '../../../application/guard/grant-book.js';
import { RevokeGrant } from '../../../application/guard/revoke-grant.js';
import { PendingDeletionBook } from '../../../application/deletions/pending-deletion-book.js';
import { DeleteLater } from '../../../application/deletions/delete-later.js';
import { UndoDeletion } from '../../../application/deletions/undo-deletion.js';
import { ListDeletions } from '../../../application/deletions/list-deletions.js';
import { PurgeDueDeletions } from '../../../application/deletions/purge-due-deletions.js';
import type { Deletable } from '../../../application/deletions/deletable.js';
import { grantDeletable, memoryDeletable } from '../../../application/deletions/family-deletables.js';
import { ListMemories } from '../../../application/memory/list-memories.js';
import { RecallMemories } from '../../../application/memory/recall-memories.js';
import { MemoryScopes } from '../../../application/memory/memory-scopes.js';
import { memoryHarness } from '../../support/memory-harness.js';
import { ManualClock } from '../../support/manual-clock.js';
import { RecordingLogger } from '../../support/fakes.js';
import { pairedStoreKinds } from '../../support/paired-stores.js';
import { standingGrant } from '../../support/guard-builders.js';

const ada: Principal = { subject: 'ada', kind: 'user' };
const bob: Principal = { subject: 'bob', kind: 'user' };

/** One instance of Porter's deletion family over `store`, with the memory and grant families beside it. */
function instance(store: Store, clock: ManualClock) {
  const memory = memoryHarness({ store, clock });
  const ids = new UlidIds();
  const audit = new AuditTrail({ sink: new StoreAuditLog(store), ids, clock, logger: new RecordingLogger() });
  const grants = new GrantBook(store.records<StoredGrant>('grants'));
  const book = new PendingDeletionBook(store.records('pending-deletions'));
  const deletables = new Map<DeletableKind, Deletable>([
    ['memory', memoryDeletable({ getMemory: memory.get, forgetMemory: memory.forget })],
    ['grant', grantDeletable({ grants, revoke: new RevokeGrant(grants, clock, audit), audit })],
  ]);
  return {
    memory,
    grants,
    list: new ListMemories(memory.book, new MemoryScopes(undefined), book),
    recall: new RecallMemories(memory.book, new MemoryScopes(undefined), 400, book),
    deleteLater: new DeleteLater({ book, deletables, clock, undoSeconds: 10 }),
    undo: new UndoDeletion(book, deletables, clock),
    pending: new ListDeletions(book, clock),
    purge: new PurgeDueDeletions(book, () => deletables, clock, new RecordingLogger()),
  };
}

for (const [label, open] of pairedStoreKinds('porter-deletions-')) {
  describe(`deleting with a way back (${label})`, function () {
    this.timeout(30_000);
    let cleanup: (() => Promise<void>) | undefined;
    let one: ReturnType<typeof instance>;
    let two: ReturnType<typeof instance>;
    let clock: ManualClock;

    beforeEach(async function () {
      const paired = await open();
      if (!paired) return this.skip();
      cleanup = async () => {
        await paired.cleanup();
      };
      clock = new ManualClock('2026-06-01T12:00:00.000Z');
      one = instance(paired.stores[0], clock);
      two = instance(paired.stores[1], clock);
    });
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it('a memory leaves the lists and recall at once on every instance, and is forgotten only after the window, exactly once', async () => {
      const { memory } = await one.memory.save.execute({ principal: ada, text: 'Ada takes her coffee black', source: { kind: 'person' } });
      const pending = await one.deleteLater.execute({ principal: ada, kind: 'memory', id: memory.id });
      expect(pending).to.deep.equal({
        id: memory.id,
        kind: 'memory',
        label: 'Ada takes her coffee black',
        undoUntil: '2026-06-01T12:00:10.000Z',
      });

      // Asking again answers the same pending deletion; someone else cannot see it, nor name it.
      expect(await two.deleteLater.execute({ principal: ada, kind: 'memory', id: memory.id })).to.deep.equal(pending);
      await expectCode(two.deleteLater.execute({ principal: bob, kind: 'memory', id: memory.id }), 'not-found');
      expect((await two.pending.execute({ principal: bob })).deletions).to.deep.equal([]);

      expect((await two.list.execute({ principal: ada })).memories).to.deep.equal([]);
      expect(await two.recall.forTurn(ada, 'how does Ada take her coffee')).to.equal(null);
      expect((await two.pending.execute({ principal: ada })).deletions).to.deep.equal([pending]);

      // Within the window the sweep leaves it: it is still there to bring back.
      clock.advance(9_999);
      expect(await two.purge.execute()).to.deep.equal([]);
      expect(await one.memory.book.find(memory.id)).to.not.equal(null);

      clock.advance(1);
      const [a, b] = await Promise.all([one.purge.execute(), two.purge.execute()]);
      expect([...a, ...b]).to.deep.equal([memory.id]);
      expect(await two.memory.book.find(memory.id)).to.equal(null);
      expect((await one.pending.execute({ principal: ada })).deletions).to.deep.equal([]);
      await expectCode(one.undo.execute({ principal: ada, id: memory.id }), 'not-found');
    });

    it('an undo on another instance within the window brings it back, and the sweep after the window deletes nothing', async () => {
      const { memory } = await one.memory.save.execute({ principal: ada, text: 'Ada runs on Tuesdays', source: { kind: 'person' } });
      await one.deleteLater.execute({ principal: ada, kind: 'memory', id: memory.id });
      await expectCode(two.undo.execute({ principal: bob, id: memory.id }), 'not-found');
      clock.advance(5_000);
      const undone = await two.undo.execute({ principal: ada, id: memory.id });
      expect(undone.id).to.equal(memory.id);
      expect((await one.list.execute({ principal: ada })).memories.map((m) => m.id)).to.deep.equal([memory.id]);
      clock.advance(60_000);
      expect(await one.purge.execute()).to.deep.equal([]);
      expect(await two.memory.book.find(memory.id)).to.not.equal(null);
    });

    it('an undo after the window is too late (409) and the deletion goes ahead', async () => {
      const { memory } = await one.memory.save.execute({ principal: ada, text: 'Ada likes tea', source: { kind: 'person' } });
      await one.deleteLater.execute({ principal: ada, kind: 'memory', id: memory.id });
      clock.advance(10_000);
      await expectCode(two.undo.execute({ principal: ada, id: memory.id }), 'conflict');
      expect(await one.purge.execute()).to.deep.equal([memory.id]);
      expect(await one.memory.book.find(memory.id)).to.equal(null);
    });

    it('a grant is revoked the moment it is deleted, and an undo makes it grant again', async () => {
      const grant = standingGrant(new UlidIds().mint('grant'), 'ada', 'notes_clear');
      await one.grants.save(grant);
      await one.deleteLater.execute({ principal: ada, kind: 'grant', id: grant.id });
      // Revoked at once, on every instance: no call is covered while the window is open.
      expect(await two.grants.activeFor('ada', 'notes_clear')).to.deep.equal([]);
      await two.undo.execute({ principal: ada, id: grant.id });
      expect((await one.grants.activeFor('ada', 'notes_clear')).map((g) => g.id)).to.deep.equal([grant.id]);
      // A grant revoked before cannot be brought back through a deletion.
      await one.deleteLater.execute({ principal: ada, kind: 'grant', id: grant.id });
      clock.advance(10_000);
      expect(await two.purge.execute()).to.deep.equal([grant.id]);
      await expectCode(one.deleteLater.execute({ principal: ada, kind: 'grant', id: grant.id }), 'conflict');
      expect(await one.grants.activeFor('ada', 'notes_clear')).to.deep.equal([]);
    });
  });
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect((error as { code?: string }).code).to.equal(code);
    return;
  }
  expect.fail(`expected ${code}`);
}
