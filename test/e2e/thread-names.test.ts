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

  it('searches titles with GET /threads?q=: every word, any case or accent, newest first, paged; only the caller’s', async () => {
    const cy = host.client.as('cy');
    const titles = ['Crème brûlée recipe', 'Weekly report', 'Recipe for bread', 'Report on the crème'];
    const ids: string[] = [];
    for (const title of titles) {
      const id = await cy.newThread();
      expect((await cy.json('PATCH', `/threads/${id}`, { title })).status).to.equal(200);
      ids.push(id);
    }
    const search = async (q: string, extra = '') => (await cy.json('GET', `/threads?q=${encodeURIComponent(q)}${extra}`)).body;
    expect((await search('RECIPE')).threads.map((t: { title: string }) => t.title)).to.deep.equal([
      'Recipe for bread',
      'Crème brûlée recipe',
    ]);
    expect((await search('creme')).threads.map((t: { title: string }) => t.title)).to.deep.equal([
      'Report on the crème',
      'Crème brûlée recipe',
    ]);
    expect((await search('report creme')).threads.map((t: { title: string }) => t.title)).to.deep.equal(['Report on the crème']);
    expect((await search('nothing like this')).threads).to.deep.equal([]);
    const first = await search('e', '&limit=2');
    expect(first.threads).to.have.length(2);
    const second = await search('e', `&limit=2&cursor=${first.nextCursor}`);
    expect([...first.threads, ...second.threads].map((t: { id: string }) => t.id)).to.deep.equal([...ids].reverse());
    expect((await host.client.as('dee').json('GET', '/threads?q=recipe')).body.threads, 'someone else’s threads never show').to.deep.equal(
      [],
    );
    expect((await cy.json('GET', `/threads?q=${'x'.repeat(201)}`)).status).to.equal(400);
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
