import { expect } from 'chai';
import { DIED_MID_TURN } from '../../application/threads/turn-mirrors.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../support/postgres.js';
import { startCluster, WIRE, type TurnCluster } from '../support/turn-cluster.js';
import { readTurn, readUntil, textOf, WireClient } from '../support/turn-client.js';
import { until } from '../support/eventually.js';
import { numberedWords } from '../support/numbered-words.js';

const turnBody = (text: string) => ({ message: { role: 'user', parts: [{ type: 'text', text }] } });

describe("A dead instance's turns free their threads at once (two instances on one PostgreSQL)", function () {
  this.timeout(90_000);
  let database: TestDatabase | null = null;
  let cluster: TurnCluster | null = null;

  before(async function () {
    this.timeout(60_000);
    const server = await postgresServerUrl();
    if (!server) return this.skip();
    database = await createTestDatabase(server);
    cluster = await startCluster(2, { databaseUrl: database.url });
  });
  after(async function () {
    this.timeout(30_000);
    await cluster?.close();
    await database?.drop();
  });

  it('takes the next message on the other instance within 3 s of a kill -9 of the instance running the turn', async () => {
    const [doomed, survivor] = cluster!.instances.map((instance) => new WireClient(`${instance.url}${WIRE}`).as('ada'));
    const thread = await doomed!.newThread();
    const text = numberedWords('d', 60);
    const running = await doomed!.send('POST', `/threads/${thread}/turn`, turnBody(`/slow 20 ${text}`));
    expect(running.status).to.equal(200);
    await readUntil(running, 'd2 ');
    const reader = await survivor!.send('GET', `/threads/${thread}/stream`);
    expect(reader.status).to.equal(200);
    // While the turn runs, its thread is busy everywhere: the holder's mark is alive.
    const busy = await survivor!.send('POST', `/threads/${thread}/turn`, turnBody('too soon'));
    expect(busy.status).to.equal(409);
    await busy.arrayBuffer();

    await cluster!.kill(0);
    const killedAt = Date.now();
    const ended = readTurn(reader);
    const next = await until(
      () => survivor!.send('POST', `/threads/${thread}/turn`, turnBody('are you back?')),
      (response) => {
        if (response.status === 409) void response.arrayBuffer();
        return response.status !== 409;
      },
      { timeoutMs: 3_000, what: 'the survivor to take a new turn' },
    );
    const tookMs = Date.now() - killedAt;
    expect(next.status).to.equal(200);
    expect(tookMs).to.be.lessThan(3_000);
    expect(textOf((await readTurn(next)).message)).to.equal('echo: are you back?');

    const elsewhere = await ended;
    expect(elsewhere.chunks.at(-2)).to.deep.equal({ type: 'error', errorText: DIED_MID_TURN });
    const stored = (await survivor!.json('GET', `/threads/${thread}`)).body.messages as Array<{ role: string }>;
    expect(stored.map((message) => message.role).slice(-2)).to.deep.equal(['user', 'assistant']);
    expect(stored[0]).to.deep.include({ role: 'user' });
    console.log(`      (the thread took a new turn ${tookMs} ms after the kill)`);
  });
});
