import { expect } from 'chai';
import { containerOf } from '../../composition/porter-container.js';
import { get, TOKENS } from '../../composition/tokens.js';
import type { Principal } from '../../domain/principal.js';
import { everyRecord } from '../../ports/store.js';
import type { DevHostFixture } from '../support/dev-host-fixture.js';
import { devHostOn, ON_MEMORY_STORE, ON_POSTGRESQL, ON_SQLITE, type HostStore } from '../support/host-stores.js';
import type { Part, WireClient } from '../support/turn-client.js';
import { pdfSaying } from '../support/upload-samples.js';
import { DEMO_DOCUMENT_TITLE } from '../../composition/dev-host/demo-knowledge.js';

/** A long handbook: the word looked for sits in one passage deep inside it, far from the start. */
const FILLER = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} talks about ordinary office matters, meetings and coffee.`).join(
  '\n\n',
);
const HANDBOOK = `${FILLER}\n\nA trip cancelled two weeks ahead is refunded in full by the zephyrine desk.\n\n${FILLER}`;

/** Who manages the documents over the wire, and who acts in which org. */
const knowledgeOptions = {
  admin: (principal: Principal) => principal.subject === 'admin',
  org: (principal: Principal) => (principal.subject === 'carol' ? 'acme' : null),
  maxDocumentBytes: 64 * 1024,
};

/** The `source-document` parts of an answer (what a stock AI SDK reader keeps). */
function sourcesOf(parts: ReadonlyArray<Part>): Part[] {
  return parts.filter((part) => part.type === 'source-document');
}

/** What the store holds of knowledge: documents and passages. */
async function storedKnowledge(host: DevHostFixture): Promise<{ documents: number; passages: number }> {
  const store = get(containerOf(host.porter), TOKENS.Store);
  return {
    documents: (await everyRecord(store.records('knowledge-documents'))).length,
    passages: (await everyRecord(store.records('knowledge-passages'))).length,
  };
}

const STORES = [ON_SQLITE, ON_MEMORY_STORE, ON_POSTGRESQL];

for (const store of STORES) describeKnowledge(store);

function describeKnowledge(on: HostStore): void {
  describe(`Knowledge on ${on.name}: answers cite the passage they came from, within the caller's scope`, function () {
    this.timeout(60_000);
    let host: DevHostFixture;
    let ada: WireClient;
    devHostOn(on, { porter: { knowledge: knowledgeOptions } }, (started) => {
      host = started;
      ada = host.client.as('ada');
    });

    it('an answer carries source-document parts pointing at the passage that holds the words, and the passage opens', async () => {
      const added = await host.porter.knowledge.add({ title: 'Travel handbook', format: 'text', content: HANDBOOK });
      expect(added).to.deep.include({ title: 'Travel handbook', format: 'text', mediaType: 'text/plain', scope: { kind: 'everyone' } });
      expect(added.passages).to.be.greaterThan(4);

      const thread = await ada.newThread();
      const turn = await ada.say(thread, '/knowledge zephyrine refunded');
      const sources = sourcesOf(turn.message.parts);
      expect(sources).to.have.length(1);
      const [source] = sources;
      expect(source).to.deep.include({ type: 'source-document', mediaType: 'text/plain', title: 'Travel handbook' });
      const place = source!.providerMetadata.porter;
      expect(place).to.deep.include({ documentId: added.id, passageId: source!.sourceId });
      // The offsets name the stretch of the document that holds the words, deep inside it.
      const cited = HANDBOOK.slice(place.start, place.end);
      expect(cited).to.contain('refunded in full by the zephyrine desk');
      expect(place.start).to.be.greaterThan(1000);
      expect(place.end - place.start).to.be.at.most(1200);
      // The answer speaks from it, and the thread keeps the citation.
      expect(
        turn.message.parts
          .filter((p) => p.type === 'text')
          .map((p) => p.text)
          .join(' '),
      ).to.contain('From “Travel handbook”');
      const stored = (await ada.json('GET', `/threads/${thread}`)).body.messages.at(-1);
      // As JSON: the SDK's reader spells an absent filename as undefined.
      expect(sourcesOf(stored.parts)).to.deep.equal(JSON.parse(JSON.stringify(sources)));

      const opened = await ada.json('GET', `/knowledge/passages/${source!.sourceId}`);
      expect(opened.status).to.equal(200);
      expect(opened.body).to.deep.equal({
        id: source!.sourceId,
        documentId: added.id,
        title: 'Travel handbook',
        mediaType: 'text/plain',
        start: place.start,
        end: place.end,
        text: cited,
      });
    });

    it('HTML is searched by its text (never its scripts), and a PDF by its pages', async () => {
      const html = await host.porter.knowledge.add({
        title: 'Baggage page',
        format: 'html',
        content:
          '<html><head><script>var quasarword = 1;</script></head><body><h1>Baggage</h1><p>Each cabin bag weighs under eight&nbsp;kilograms, said the marmoset.</p></body></html>',
      });
      const pdf = await host.porter.knowledge.add({
        title: 'Quarterly report',
        format: 'pdf',
        content: pdfSaying('Figures of the pangolin quarter'),
      });
      expect(pdf.mediaType).to.equal('application/pdf');
      const ada = { subject: 'ada', kind: 'user' };
      const [bag] = await host.porter.knowledge.search(ada, 'marmoset kilograms');
      expect(bag).to.deep.include({ documentId: html.id, title: 'Baggage page' });
      expect(bag!.text).to.contain('eight kilograms').and.not.contain('<p>');
      expect(await host.porter.knowledge.search(ada, 'quasarword')).to.deep.equal([]);
      const [report] = await host.porter.knowledge.search(ada, 'pangolin');
      expect(report).to.deep.include({ documentId: pdf.id, mediaType: 'application/pdf' });
    });

    it("another person's (or another org's) document is never returned: not searched, its passage 404", async () => {
      const bobs = await host.porter.knowledge.add({
        title: 'Bob’s notes',
        format: 'markdown',
        content: '# Private\n\nThe vault code is kept by the ocelot committee.',
        scope: { kind: 'person', subject: 'bob' },
      });
      const acme = await host.porter.knowledge.add({
        title: 'Acme policy',
        format: 'text',
        content: 'Acme staff fly business class on routes longer than the narwhal threshold.',
        scope: { kind: 'org', org: 'acme' },
      });
      const bob = host.client.as('bob');
      const carol = host.client.as('carol');

      // Bob finds his own; ada finds nothing, and his passage is 404 to her.
      const bobTurn = await bob.say(await bob.newThread(), '/knowledge ocelot');
      const [bobSource] = sourcesOf(bobTurn.message.parts);
      expect(bobSource).to.deep.include({ title: 'Bob’s notes' });
      const adaTurn = await ada.say(await ada.newThread(), '/knowledge ocelot');
      expect(sourcesOf(adaTurn.message.parts)).to.deep.equal([]);
      const refused = await ada.json('GET', `/knowledge/passages/${bobSource!.sourceId}`);
      expect(refused.status).to.equal(404);
      expect(refused.body.error.code).to.equal('not-found');
      expect((await bob.json('GET', `/knowledge/passages/${bobSource!.sourceId}`)).status).to.equal(200);
      // Anonymous visitors reach only what is everyone's.
      const anonymous = await host.client.json('GET', `/knowledge/passages/${bobSource!.sourceId}`);
      expect(anonymous.status).to.equal(404);

      // The org's document: carol acts in acme, ada in none.
      expect(
        (await host.porter.knowledge.search({ subject: 'carol', kind: 'user' }, 'narwhal')).map((hit) => hit.documentId),
      ).to.deep.equal([acme.id]);
      expect(await host.porter.knowledge.search({ subject: 'ada', kind: 'user' }, 'narwhal')).to.deep.equal([]);
      const carolTurn = await carol.say(await carol.newThread(), '/knowledge narwhal');
      const [acmeSource] = sourcesOf(carolTurn.message.parts);
      expect((await ada.json('GET', `/knowledge/passages/${acmeSource!.sourceId}`)).status).to.equal(404);
      expect((await carol.json('GET', `/knowledge/passages/${acmeSource!.sourceId}`)).status).to.equal(200);
      expect(bobs.scope).to.deep.equal({ kind: 'person', subject: 'bob' });
    });

    it('only the host’s admins manage documents over the wire; a removed document is never answered again', async () => {
      const admin = host.client.as('admin');
      const body = { title: 'Support hours', format: 'markdown', text: 'The desk answers the kinkajou line from 8 to 20.' };
      const refused = await ada.json('POST', '/knowledge/documents', body);
      expect(refused.status).to.equal(403);
      expect(refused.body.error.code).to.equal('forbidden');
      expect((await ada.json('GET', '/knowledge/documents')).status).to.equal(403);
      expect((await host.client.json('POST', '/knowledge/documents', body)).status).to.equal(403);

      const created = await admin.json('POST', '/knowledge/documents', body);
      expect(created.status).to.equal(201);
      expect(created.body).to.deep.include({ title: 'Support hours', format: 'markdown', passages: 1 });
      const listed = await admin.json('GET', '/knowledge/documents?limit=100');
      expect(listed.body.documents.map((d: { id: string }) => d.id)).to.include(created.body.id);
      expect((await admin.json('GET', `/knowledge/documents/${created.body.id}`)).body.id).to.equal(created.body.id);

      const [hit] = await host.porter.knowledge.search({ subject: 'ada', kind: 'user' }, 'kinkajou');
      expect(hit!.documentId).to.equal(created.body.id);
      expect((await ada.send('DELETE', `/knowledge/documents/${created.body.id}`)).status).to.equal(403);
      expect((await admin.send('DELETE', `/knowledge/documents/${created.body.id}`)).status).to.equal(204);
      expect((await admin.json('GET', `/knowledge/documents/${created.body.id}`)).status).to.equal(404);
      expect(await host.porter.knowledge.search({ subject: 'ada', kind: 'user' }, 'kinkajou')).to.deep.equal([]);
      expect((await ada.json('GET', `/knowledge/passages/${hit!.id}`)).status).to.equal(404);
      expect(await host.porter.knowledge.remove(created.body.id)).to.equal(false);
    });

    it('hostile documents get a clear 4xx and nothing is stored: oversize, unknown format, a PDF that is not one, no words', async () => {
      const admin = host.client.as('admin');
      const before = await storedKnowledge(host);
      const oversize = await admin.json('POST', '/knowledge/documents', { title: 'Big', format: 'text', text: 'word '.repeat(20_000) });
      expect(oversize.status).to.equal(413);
      expect(oversize.body.error.code).to.equal('payload-too-large');
      for (const [body, why] of [
        [{ title: 'Doc', format: 'docx', text: 'hello' }, 'an unknown format'],
        [{ title: 'Doc', format: 'pdf', base64: Buffer.from('not a pdf at all').toString('base64') }, 'a PDF that is not one'],
        [{ title: 'Doc', format: 'pdf', text: 'a PDF given as text' }, 'a PDF given as text'],
        [{ title: 'Doc', format: 'text', base64: '!!not base64!!' }, 'broken base64'],
        [{ title: 'Doc', format: 'text', text: 'a', base64: 'YQ==' }, 'both text and base64'],
        [{ title: 'Doc', format: 'text', text: ' \n\t .,;' }, 'no words'],
        [{ title: 'Doc', format: 'text', base64: Buffer.from([0xff, 0xfe, 0x00, 0xc3]).toString('base64') }, 'bytes that are not UTF-8'],
        [{ title: '', format: 'text', text: 'hello' }, 'an empty title'],
        [{ title: 'Doc', format: 'text', text: 'hello', scope: { kind: 'person', subject: '' } }, 'an empty subject'],
        [{ title: 'Doc', format: 'text', text: 'hello', scope: { kind: 'everyone', extra: 1 } }, 'an unknown field'],
      ] as const) {
        const answer = await admin.json('POST', '/knowledge/documents', body);
        expect(answer.status, why).to.equal(400);
        expect(answer.body.error.code, why).to.equal('validation');
      }
      expect(await storedKnowledge(host)).to.deep.equal(before);
      // Passage ids that cannot name anything, or name a place the document does not have: 404.
      const [hit] = await host.porter.knowledge.search({ subject: 'ada', kind: 'user' }, 'zephyrine');
      for (const id of ['psg_short', `${hit!.id.replace(/-\d+$/, '')}-999`, `${hit!.id}x`, 'doc_01JABCDEFGHJKMNPQRSTVWXYZ0'])
        expect((await ada.json('GET', `/knowledge/passages/${encodeURIComponent(id)}`)).status, id).to.equal(404);
      // A query of punctuation or operators is words or nothing, never syntax.
      for (const query of ['"', 'NEAR(a b)', '*', "' OR 1=1 --"]) {
        const turn = await ada.say(await ada.newThread(), `/knowledge ${query}`);
        expect(
          turn.message.parts.some((p) => p.type === 'tool-knowledge_search' && p.state === 'output-available'),
          query,
        ).to.equal(true);
      }
    });

    it('the development host answers from its demo handbook out of the box', async () => {
      const turn = await ada.say(await ada.newThread(), '/knowledge refund cancelled');
      const titles = sourcesOf(turn.message.parts).map((source) => source.title);
      expect(titles).to.include(DEMO_DOCUMENT_TITLE);
    });
  });
}
