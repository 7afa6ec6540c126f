import { expect } from 'chai';
import { NotFound } from '../../../domain/errors.js';
import type { Principal } from '../../../domain/principal.js';
import type { StreamedSource, ToolContext } from '../../../ports/tool-registry.js';
import { ManualClock } from '../../support/manual-clock.js';
import { knowledgeOn } from '../../support/knowledge-harness.js';
import { storeKinds } from '../../support/paired-stores.js';

const ada: Principal = { subject: 'ada', kind: 'user' };
const bob: Principal = { subject: 'bob', kind: 'user' };

describe('Knowledge use cases', function () {
  this.timeout(30_000);
  for (const on of storeKinds('porter-knowledge-')) {
    describe(`on ${on.name}`, () => {
      let k: ReturnType<typeof knowledgeOn>;
      before(async function () {
        const store = await on.open(new ManualClock('2026-06-01T12:00:00.000Z'));
        if (!store) return this.skip();
        k = knowledgeOn(store, new ManualClock('2026-06-01T12:00:00.000Z'));
      });
      after(async () => {
        await k?.store.close();
      });

      it('the tool answers the best passages and cites each as a source-document pointing at its place', async () => {
        const text = `${'Filler about the weather and the sea. '.repeat(80)}\n\nThe gryphon ledger closes on Fridays.\n\n${'More filler about lunch. '.repeat(80)}`;
        const doc = await k.add.execute({ by: 'host', title: 'Ledger rules', format: 'text', content: text });
        const cited: StreamedSource[] = [];
        const context = {
          principal: ada,
          toolCallId: 'call_1',
          cite: (source: StreamedSource) => cited.push(source),
        } as unknown as ToolContext;
        const output = (await k.tool.execute({ query: 'gryphon ledger', limit: 5 }, context)) as {
          passages: Array<{ passageId: string; text: string }>;
        };
        expect(output.passages.length).to.be.greaterThan(0);
        expect(cited.map((source) => source.sourceId)).to.deep.equal(output.passages.map((passage) => passage.passageId));
        const [first] = cited;
        expect(first).to.deep.include({ type: 'source-document', title: 'Ledger rules', mediaType: 'text/plain' });
        const place = (first as unknown as { providerMetadata: { porter: { documentId: string; start: number; end: number } } })
          .providerMetadata.porter;
        expect(place.documentId).to.equal(doc.id);
        expect(text.slice(place.start, place.end)).to.contain('The gryphon ledger closes on Fridays.');
        expect(output.passages[0]!.text).to.equal(text.slice(place.start, place.end));
      });

      it("another person's document is never returned, and a removed one never again, even were its index entries left", async () => {
        const bobs = await k.add.execute({
          by: 'host',
          title: 'Bob only',
          format: 'html',
          content: '<p>The basilisk code is 4411.</p>',
          scope: { kind: 'person', subject: 'bob' },
        });
        const [hit] = await k.search.execute({ principal: bob, query: 'basilisk' });
        expect(hit!.documentId).to.equal(bobs.id);
        expect(await k.search.execute({ principal: ada, query: 'basilisk' })).to.deep.equal([]);
        let refused: unknown;
        await k.read.execute({ principal: ada, passageId: hit!.id }).catch((error: unknown) => (refused = error));
        expect(refused).to.be.instanceOf(NotFound);

        // The document's record goes first: a search between that and its passages' removal answers nothing of it.
        await k.store.records('knowledge-documents').delete(bobs.id);
        expect(await k.search.execute({ principal: bob, query: 'basilisk' })).to.deep.equal([]);
        await k.read.execute({ principal: bob, passageId: hit!.id }).then(
          () => expect.fail('a removed document’s passage opened'),
          (error: unknown) => expect(error).to.be.instanceOf(NotFound),
        );
      });

      it('managing documents needs the host or an admin; documents added at once are all kept', async () => {
        let refused: unknown;
        await k.add.execute({ by: ada, title: 'x', format: 'text', content: 'hello' }).catch((error: unknown) => (refused = error));
        expect((refused as { code?: string }).code).to.equal('forbidden');
        const added = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            k.add.execute({
              by: { subject: 'admin', kind: 'user' },
              title: `Doc ${i}`,
              format: 'text',
              content: `Tapir note number ${i}.`,
            }),
          ),
        );
        const listed = (await k.list.execute({ by: 'host', limit: 100 })).documents.map((d) => d.id);
        expect(listed).to.include.members(added.map((d) => d.id));
        expect((await k.search.execute({ principal: ada, query: 'tapir', limit: 10 })).length).to.equal(6);
        await k.remove.execute({ by: 'host', documentId: added[0]!.id });
        expect((await k.search.execute({ principal: ada, query: 'tapir', limit: 10 })).map((hit) => hit.documentId)).to.not.include(
          added[0]!.id,
        );
        expect(await k.store.records('knowledge-passages').list({ refs: { document: added[0]!.id } }))
          .to.have.property('items')
          .with.length(0);
      });
    });
  }
});
