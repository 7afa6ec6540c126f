import { expect } from 'chai';
import { devHostOn, ON_POSTGRESQL, ON_SQLITE } from '../support/host-stores.js';
import type { WireClient } from '../support/turn-client.js';

type Memory = { id: string; text: string; revision: number; source: { kind: string; threadId?: string } };

/** Where each run's development host stores: SQLite in memory, and a fresh PostgreSQL database when the run has one. */
const STORES = [ON_SQLITE, ON_POSTGRESQL];

for (const store of STORES) {
  describe(`memory over the wire (${store.name})`, function () {
    this.timeout(60_000);
    let ada: WireClient;
    let bob: WireClient;

    devHostOn(store, {}, (host) => {
      ada = host.client.as('ada');
      bob = host.client.as('bob');
    });

    it('the agent remembers through memory_save in a chat: the turn shows "remembered", the person finds it on the wire', async () => {
      const threadId = await ada.newThread();
      const turn = await ada.say(threadId, '/call memory_save {"text":"Ada takes her coffee black"}');
      const part = turn.message.parts.find((p) => p.type === 'data-porter-memory') as
        { data: { action: string; text: string } } | undefined;
      expect(part?.data).to.deep.include({ action: 'saved', text: 'Ada takes her coffee black' });
      const listed = await ada.json<{ memories: Memory[] }>('GET', '/memories');
      expect(listed.status).to.equal(200);
      expect(listed.body.memories.map((m) => m.text)).to.include('Ada takes her coffee black');
      const saved = listed.body.memories.find((m) => m.text === 'Ada takes her coffee black')!;
      expect(saved.source).to.deep.include({ kind: 'agent', threadId });
      // The next turn of hers recalls it, and a turn of Bob's never does (his list is empty too).
      expect((await bob.json<{ memories: Memory[] }>('GET', '/memories')).body.memories).to.deep.equal([]);
    });

    it('a person adds, edits (against a revision), exports and forgets; a stale edit is 409 and overwrites nothing', async () => {
      const added = await ada.json<Memory>('POST', '/memories', { text: '  Ada runs on Tuesdays ' });
      expect(added.status).to.equal(201);
      expect(added.body).to.include({ text: 'Ada runs on Tuesdays', revision: 1 });
      const id = added.body.id;
      expect(id).to.match(/^mem_/);

      const edited = await ada.json<Memory>('PATCH', `/memories/${id}`, { text: 'Ada runs on Thursdays', revision: 1 });
      expect(edited.status).to.equal(200);
      expect(edited.body).to.include({ text: 'Ada runs on Thursdays', revision: 2 });
      const stale = await ada.json('PATCH', `/memories/${id}`, { text: 'Ada runs on Mondays', revision: 1 });
      expect(stale.status).to.equal(409);
      expect(stale.body.error.code).to.equal('conflict');
      expect(stale.body.error.message).to.match(/changed since/);
      expect(stale.body.error.details.current).to.include({ text: 'Ada runs on Thursdays', revision: 2 });
      expect((await ada.json<Memory>('GET', `/memories/${id}`)).body.text).to.equal('Ada runs on Thursdays');

      const exported = await ada.send('GET', '/memories/export');
      expect(exported.status).to.equal(200);
      expect(exported.headers.get('content-disposition')).to.match(/attachment; filename="memories.json"/);
      const document = (await exported.json()) as { format: string; memories: Memory[] };
      expect(document.format).to.equal('porter-memories');
      expect(document.memories.map((m) => m.text)).to.include('Ada runs on Thursdays');

      expect((await ada.send('DELETE', `/memories/${id}`)).status).to.equal(204);
      expect((await ada.json('GET', `/memories/${id}`)).status).to.equal(404);
    });

    it("another person's memory is 404 for every route, as an unknown or malformed id is", async () => {
      const { body } = await ada.json<Memory>('POST', '/memories', { text: 'Ada is learning Welsh' });
      const attempts = [
        await bob.json('GET', `/memories/${body.id}`),
        await bob.json('PATCH', `/memories/${body.id}`, { text: 'hijacked', revision: body.revision }),
        await bob.json('DELETE', `/memories/${body.id}`),
        await bob.json('GET', '/memories/mem_01JZZZZZZZZZZZZZZZZZZZZZZZ'),
        await bob.json('GET', '/memories/not-a-memory'),
        await bob.json('GET', '/memories/thr_01JZZZZZZZZZZZZZZZZZZZZZZZ'),
      ];
      for (const answer of attempts) {
        expect(answer.status).to.equal(404);
        expect(answer.body.error.code).to.equal('not-found');
      }
      const bobs = await bob.json<{ memories: Memory[] }>('GET', '/memories/export');
      expect(bobs.body.memories).to.deep.equal([]);
      expect((await ada.json<Memory>('GET', `/memories/${body.id}`)).body.text).to.equal('Ada is learning Welsh');
    });

    it('refuses a bad memory with 400 and stores nothing', async () => {
      for (const body of [
        { text: '' },
        { text: '   ' },
        { text: 'x'.repeat(1001) },
        { text: 'nul\u0000byte' },
        { text: 'ok', extra: 1 },
        {},
      ]) {
        const answer = await bob.json('POST', '/memories', body);
        expect(answer.status, JSON.stringify(body).slice(0, 40)).to.equal(400);
        expect(answer.body.error.code).to.equal('validation');
      }
      expect((await bob.json<{ memories: Memory[] }>('GET', '/memories')).body.memories).to.deep.equal([]);
    });
  });
}
