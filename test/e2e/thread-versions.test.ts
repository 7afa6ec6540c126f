import { expect } from 'chai';
import { sharedDevHost } from '../support/dev-host-fixture.js';
import { readTurn, readUntil, type WireClient } from '../support/turn-client.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';

interface StoredThread {
  messages: Array<{ id: string; role: string; parts: Array<{ text?: string }> }>;
  versions: Array<{ messageId: string; index: number; count: number }>;
}

describe('Message versions over the wire (development host)', function () {
  this.timeout(30_000);
  let host: DevHost & { client: WireClient };
  let ada: WireClient;

  sharedDevHost((started) => ({ host, ada } = started));

  it('answers versions in the thread, switches with POST …/versions, and refuses in the envelope: 404, 400, 409', async () => {
    const thread = await ada.newThread();
    await ada.say(thread, 'hello');
    const asked = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello' }] };
    await readTurn(await ada.send('POST', `/threads/${thread}/turn`, { messages: [asked], trigger: 'regenerate-message' }));
    const read = async () => (await ada.json<StoredThread>('GET', `/threads/${thread}`)).body;
    const now = await read();
    const answer = now.messages[1]!.id;
    expect(now.versions).to.deep.equal([{ messageId: answer, index: 1, count: 2 }]);

    const path = (messageId: string) => `/threads/${thread}/messages/${encodeURIComponent(messageId)}/versions`;
    const shown = await ada.json<StoredThread>('POST', path(answer), { index: 0 });
    expect(shown.status).to.equal(200);
    expect(shown.body.versions).to.deep.equal([{ messageId: shown.body.messages[1]!.id, index: 0, count: 2 }]);
    expect((await read()).messages.map((m) => m.id)).to.deep.equal(shown.body.messages.map((m) => m.id));

    const current = shown.body.messages[1]!.id;
    const beyond = await ada.json('POST', path(current), { index: 2 });
    expect(beyond.status).to.equal(400);
    expect(beyond.body.error.code).to.equal('validation');
    expect(beyond.body.error.message).to.contain('There is no version 2');
    const noVersions = await ada.json('POST', path(shown.body.messages[0]!.id), { index: 0 });
    expect(noVersions.status).to.equal(404);
    expect(noVersions.body.error.code).to.equal('not-found');
    const someoneElse = await host.client.as('bob').json('POST', path(current), { index: 1 });
    expect(someoneElse.status).to.equal(404);
    expect(someoneElse.body.error.code).to.equal('not-found');

    // A turn in flight: the switch waits for it (409), then goes through.
    const slow = await ada.send('POST', `/threads/${thread}/turn`, {
      message: { role: 'user', parts: [{ type: 'text', text: '/slow 2 one two three four' }] },
    });
    await readUntil(slow, 'text-delta');
    const during = await ada.json('POST', path(current), { index: 1 });
    expect(during.status).to.equal(409);
    expect(during.body.error.code).to.equal('conflict');
    await slow.body!.cancel().catch(() => undefined);
  });
});
