import { expect } from 'chai';
import { Conflict, NotFound } from '../../../domain/errors.js';
import type { Principal } from '../../../domain/principal.js';
import { MemoryChangedMeanwhile } from '../../../application/memory/edit-memory.js';
import { MemoryFull } from '../../../application/memory/save-memory.js';
import { pairedStoreKinds, pairedStoresPerSuite } from '../../support/paired-stores.js';
import { memoryHarness } from '../../support/memory-harness.js';

const ada: Principal = { subject: 'ada', kind: 'user' };
const bob: Principal = { subject: 'bob', kind: 'user' };
const person = { kind: 'person' } as const;

/**
 * Two instances (two stores over one database, or one memory store) save and edit one person's
 * memories at the same moment: every save is kept, and of racing edits exactly one lands.
 */
for (const [label, open] of pairedStoreKinds('porter-memory-race-')) {
  describe(`memories under racing writers: ${label}`, function () {
    this.timeout(60_000);
    const opened = pairedStoresPerSuite(open);

    const instances = () => opened().stores.map((store) => memoryHarness({ store }));

    it('twelve saves at once from two instances (two turns, two tabs): every one is kept', async () => {
      const [a, b] = instances();
      const texts = Array.from({ length: 12 }, (_, i) => `fact number ${i} about the racing person`);
      const who: Principal = { subject: 'racer', kind: 'user' };
      const saved = await Promise.all(texts.map((text, i) => (i % 2 ? b! : a!).save.execute({ principal: who, text, source: person })));
      expect(new Set(saved.map((s) => s.memory.id)).size).to.equal(12);
      const listed = await a!.list.execute({ principal: who, limit: 100 });
      expect(listed.memories.map((m) => m.text).sort()).to.deep.equal([...texts].sort());
      expect((await b!.exportAll.execute({ principal: who })).memories).to.have.length(12);
    });

    it('two edits of one revision at once: exactly one lands, the other is told (409) what won and overwrites nothing', async () => {
      const [a, b] = instances();
      for (let round = 0; round < 5; round++) {
        const { memory } = await a!.save.execute({ principal: ada, text: `round ${round} original`, source: person });
        const edits = ['left', 'right'].map((side, i) =>
          (i ? b! : a!).edit.execute({ principal: ada, memoryId: memory.id, text: `round ${round} by ${side}`, revision: memory.revision }),
        );
        const settled = await Promise.allSettled(edits);
        const won = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
        const lost = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
        expect(won, `round ${round}`).to.have.length(1);
        expect(lost).to.have.length(1);
        expect(lost[0]).to.be.instanceOf(MemoryChangedMeanwhile).and.instanceOf(Conflict);
        const current = (lost[0] as MemoryChangedMeanwhile).details!.current as { text: string; revision: number };
        expect(current.text).to.equal(won[0]!.text);
        const stored = await b!.get.execute({ principal: ada, memoryId: memory.id });
        expect(stored.text).to.equal(won[0]!.text);
        expect(stored.revision).to.equal(memory.revision + 1);
        // An edit made against the old revision afterwards is refused too: nothing is overwritten.
        const stale = await a!.edit
          .execute({ principal: ada, memoryId: memory.id, text: 'stale', revision: memory.revision })
          .catch((error: unknown) => error);
        expect(stale).to.be.instanceOf(MemoryChangedMeanwhile);
        expect((await a!.get.execute({ principal: ada, memoryId: memory.id })).text).to.equal(won[0]!.text);
      }
    });

    it("another person's memory is never returned, changed or forgotten: 404 as for an unknown id", async () => {
      const [a, b] = instances();
      const { memory } = await a!.save.execute({ principal: ada, text: 'ada keeps a diary in French', source: person });
      const attempts: Array<() => Promise<unknown>> = [
        () => b!.get.execute({ principal: bob, memoryId: memory.id }),
        () => b!.edit.execute({ principal: bob, memoryId: memory.id, text: 'hijacked', revision: memory.revision }),
        () => b!.forget.execute({ principal: bob, memoryId: memory.id }),
        () => b!.get.execute({ principal: bob, memoryId: 'mem_01JZZZZZZZZZZZZZZZZZZZZZZZ' }),
      ];
      for (const attempt of attempts) expect(await attempt().catch((error: unknown) => error)).to.be.instanceOf(NotFound);
      expect((await b!.list.execute({ principal: bob })).memories.map((m) => m.id)).to.not.include(memory.id);
      expect(await b!.search.execute({ principal: bob, query: 'diary French', limit: 20 })).to.deep.equal([]);
      expect(await b!.recall.forTurn(bob, 'my diary in French')).to.equal(null);
      expect((await a!.get.execute({ principal: ada, memoryId: memory.id })).text).to.equal('ada keeps a diary in French');
    });
  });
}

describe('memories (use cases)', () => {
  it('kept per org only when the host says so: another org of the same person sees none of them', async () => {
    let org: string | null = 'acme';
    const h = memoryHarness({ org: () => org });
    const { memory } = await h.save.execute({ principal: ada, text: 'acme invoices go to finance', source: person });
    org = 'globex';
    expect(await h.get.execute({ principal: ada, memoryId: memory.id }).catch((error: unknown) => error)).to.be.instanceOf(NotFound);
    expect((await h.list.execute({ principal: ada })).memories).to.deep.equal([]);
    expect(await h.recall.forTurn(ada, 'where do invoices go?')).to.equal(null);
    org = 'acme';
    expect(await h.recall.forTurn(ada, 'where do invoices go?')).to.contain('acme invoices go to finance');
  });

  it('a text already kept is not kept twice; past the cap a save is refused until one is forgotten', async () => {
    const h = memoryHarness({ maxPerPerson: 2 });
    const first = await h.save.execute({ principal: ada, text: 'likes tea', source: person });
    expect((await h.save.execute({ principal: ada, text: '  Likes TEA ', source: person })).existed).to.equal(true);
    await h.save.execute({ principal: ada, text: 'likes rain', source: person });
    expect(await h.save.execute({ principal: ada, text: 'likes snow', source: person }).catch((e: unknown) => e)).to.be.instanceOf(
      MemoryFull,
    );
    await h.forget.execute({ principal: ada, memoryId: first.memory.id });
    expect((await h.save.execute({ principal: ada, text: 'likes snow', source: person })).existed).to.equal(false);
    // Bob's memories are his own: ada's cap is not his.
    expect((await h.save.execute({ principal: bob, text: 'likes snow', source: person })).existed).to.equal(false);
  });
});
