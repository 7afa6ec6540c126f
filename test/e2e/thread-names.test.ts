import { expect } from 'chai';
import { sharedDevHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import type { WireClient } from '../support/turn-client.js';

describe('Renaming and searching threads, and listing the host tools, over the wire', function () {
  this.timeout(30_000);
  let host: DevHostFixture;
  let ada: WireClient;
  sharedDevHost((started) => ({ host, ada } = started));

  it('renames a thread with PATCH /threads/:id; the list shows the new title; bad titles and other people’s threads are refused', async () => {
    const thread = await ada.newThread();
    await ada.say(thread, 'what shall we plant');
    const renamed = await ada.json('PATCH', `/threads/${thread}`, { title: '  Garden   plans  ' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body).to.deep.include({ id: thread, title: 'Garden plans' });
    const listed = (await ada.json('GET', '/threads')).body.threads;
    expect(listed.find((t: { id: string }) => t.id === thread).title).to.equal('Garden plans');
    // A later turn keeps the person's title.
    await ada.say(thread, 'and roses?');
    expect((await ada.json('GET', `/threads/${thread}`)).body.title).to.equal('Garden plans');

    for (const body of [{ title: '' }, { title: '   ' }, { title: 'x'.repeat(201) }, { title: 3 }, { name: 'x' }, {}]) {
      const refused = await ada.json('PATCH', `/threads/${thread}`, body);
      expect(refused.status, JSON.stringify(body)).to.equal(400);
      expect(refused.body.error.code).to.equal('validation');
    }
    expect((await host.client.as('bob').json('PATCH', `/threads/${thread}`, { title: 'mine now' })).status).to.equal(404);
    expect((await ada.json('PATCH', '/threads/thr_0123456789ab', { title: 'ghost' })).status).to.equal(404);
  });

  it('searches titles with GET /threads?q=: every word, each the start of a word, any case or accent, best first, paged; only the caller’s', async () => {
    const cy = host.client.as('cy');
    const titles = ['Crème brûlée recipe', 'Weekly report', 'Recipe for bread', 'Report on the crème'];
    const ids: string[] = [];
    for (const title of titles) {
      const id = await cy.newThread();
      expect((await cy.json('PATCH', `/threads/${id}`, { title })).status).to.equal(200);
      ids.push(id);
    }
    const search = async (q: string, extra = '') => (await cy.json('GET', `/threads?q=${encodeURIComponent(q)}${extra}`)).body;
    const titled = (body: { threads: Array<{ title: string }> }) => body.threads.map((t) => t.title).sort();
    expect(titled(await search('RECIPE'))).to.deep.equal(['Crème brûlée recipe', 'Recipe for bread']);
    expect(titled(await search('creme'))).to.deep.equal(['Crème brûlée recipe', 'Report on the crème']);
    expect(titled(await search('report creme'))).to.deep.equal(['Report on the crème']);
    expect((await search('nothing like this')).threads).to.deep.equal([]);
    const [hit] = (await search('weekly')).threads;
    expect(hit.match).to.deep.equal({ snippet: 'Weekly report', highlights: [{ start: 0, end: 6 }] });
    const first = await search('re', '&limit=2');
    expect(first.threads).to.have.length(2);
    const second = await search('re', `&limit=2&cursor=${first.nextCursor}`);
    expect(second.nextCursor).to.equal(null);
    expect([...first.threads, ...second.threads].map((t: { id: string }) => t.id).sort()).to.deep.equal([...ids].sort());
    expect((await host.client.as('dee').json('GET', '/threads?q=recipe')).body.threads, 'someone else’s threads never show').to.deep.equal(
      [],
    );
    expect((await cy.json('GET', `/threads?q=${'x'.repeat(201)}`)).status).to.equal(400);
  });

  it('finds the words of a conversation with GET /threads?q=, with a highlighted snippet; never another person’s; not once deleted; hostile queries answer 200', async () => {
    const eve = host.client.as('eve');
    const thread = await eve.newThread();
    await eve.say(thread, 'hello there');
    await eve.say(thread, 'the lighthouse keeper feeds seventeen gulls');
    const found = (await eve.json('GET', '/threads?q=SEVENTEEN%20gull')).body.threads;
    expect(found.map((t: { id: string }) => t.id)).to.deep.equal([thread]);
    const { snippet, highlights, messageId } = found[0].match;
    expect(highlights.map((h: { start: number; end: number }) => snippet.slice(h.start, h.end))).to.include.members(['seventeen', 'gulls']);
    expect(messageId).to.be.a('string');
    const messages = (await eve.json('GET', `/threads/${thread}`)).body.messages as Array<{ id: string }>;
    expect(messages.map((m) => m.id)).to.include(messageId);

    expect((await host.client.as('fay').json('GET', '/threads?q=lighthouse')).body.threads).to.deep.equal([]);
    for (const q of [
      '"',
      '*',
      'NEAR(',
      '-',
      'OR',
      '")',
      "' or 1=1 --",
      'lighthouse*',
      '-lighthouse',
      'keeper OR nothing',
      '{text}:x',
      '\\',
    ]) {
      const answer = await eve.json('GET', `/threads?q=${encodeURIComponent(q)}`);
      expect(answer.status, q).to.equal(200);
      expect(answer.body.threads, q).to.be.an('array');
    }
    expect((await eve.json('GET', '/threads?q=-lighthouse')).body.threads).to.have.length(1);

    expect((await eve.json('DELETE', `/threads/${thread}`)).status).to.equal(204);
    expect((await eve.json('GET', '/threads?q=lighthouse')).body.threads).to.deep.equal([]);
  });

  it("lists the host's own tools with GET /tools: what they do and their risk, not Porter's porter_* tools", async () => {
    const answer = await ada.json('GET', '/tools');
    expect(answer.status).to.equal(200);
    const names = answer.body.tools.map((t: { name: string }) => t.name);
    expect(names).to.include.members(['notes_add', 'notes_clear', 'notes_list', 'web_fetch']);
    expect(names.some((name: string) => name.startsWith('porter_'))).to.equal(false);
    expect(answer.body.tools.find((t: { name: string }) => t.name === 'web_fetch')).to.deep.include({
      risk: 'read',
      egress: true,
      connection: null,
    });
    expect(answer.body.tools.find((t: { name: string }) => t.name === 'notes_clear')).to.deep.include({ risk: 'destructive' });
  });
});
