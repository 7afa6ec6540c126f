import { expect } from 'chai';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../support/postgres.js';
import { startCluster, WIRE, type TurnCluster } from '../support/turn-cluster.js';
import { readTurn, WireClient } from '../support/turn-client.js';

const turnBody = (text: string) => ({ message: { role: 'user', parts: [{ type: 'text', text }] } });

type ClusterOptions = Omit<Parameters<typeof startCluster>[1], 'databaseUrl'>;

/** Two instances on a database of their own, for the suite that calls it; skipped without PostgreSQL. */
function twoInstancesOnPostgres(options: ClusterOptions): () => TurnCluster {
  let database: TestDatabase | null = null;
  let cluster: TurnCluster | null = null;
  before(async function () {
    const server = await postgresServerUrl();
    if (!server) return this.skip();
    database = await createTestDatabase(server);
    cluster = await startCluster(2, { ...options, databaseUrl: database.url });
  });
  after(async function () {
    await cluster?.close();
    await database?.drop();
  });
  return () => cluster!;
}

describe('Usage limits on two instances sharing one PostgreSQL', function () {
  this.timeout(90_000);
  const cluster = twoInstancesOnPostgres({ limits: { turns: { max: 2, windowSeconds: 3600 } } });

  it('a subject racing its last turn from both instances spends it exactly once, round after round; the other gets 429 with Retry-After', async () => {
    const [first, second] = cluster().instances.map((instance) => new WireClient(`${instance.url}${WIRE}`));
    for (let round = 0; round < 6; round++) {
      const subject = `racer-${round}`;
      const onFirst = first!.as(subject);
      const onSecond = second!.as(subject);
      const warmup = await onFirst.newThread();
      await onFirst.say(warmup, 'the first of two');
      const [left, right] = [await onFirst.newThread(), await onSecond.newThread()];
      const answers = await Promise.all([
        onFirst.send('POST', `/threads/${left}/turn`, turnBody('the last one, from the first instance')),
        onSecond.send('POST', `/threads/${right}/turn`, turnBody('the last one, from the second instance')),
      ]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses, `round ${round}`).to.deep.equal([200, 429]);
      const won = answers.find((answer) => answer.status === 200)!;
      const lost = answers.find((answer) => answer.status === 429)!;
      expect((await readTurn(won)).chunks.at(-1)).to.deep.include({ type: 'finish' });
      expect(Number(lost.headers.get('retry-after'))).to.be.within(3500, 3660);
      const refusal = await lost.json();
      expect(refusal.error).to.deep.include({ code: 'rate-limited' });
      expect(refusal.error.details.budget).to.equal('turns');
      // Both instances read the same tally from the store.
      for (const client of [onFirst, onSecond]) {
        expect((await client.json('GET', '/usage')).body.budgets.turns).to.deep.include({ used: 2, max: 2, remaining: 0 });
      }
    }
  });
});

describe('Turns in flight on two instances sharing one PostgreSQL', function () {
  this.timeout(120_000);
  const cluster = twoInstancesOnPostgres({ maxTurnsInFlight: 2 });

  it("six turns of one subject racing on both instances: exactly two run, four are 429; a killed instance's places lapse with their lease", async () => {
    const [first, second] = cluster().instances.map((instance) => new WireClient(`${instance.url}${WIRE}`).as('racer'));
    const clients = [first!, second!, first!, second!, first!, second!];
    const threads = await Promise.all(clients.map((client) => client.newThread()));
    const answers = await Promise.all(
      clients.map((client, i) => client.send('POST', `/threads/${threads[i]}/turn`, turnBody('/slow 2 one two three'))),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).to.deep.equal([200, 200, 429, 429, 429, 429]);
    for (const answer of answers) {
      if (answer.status === 200) {
        expect((await readTurn(answer)).chunks.at(-1)).to.deep.include({ type: 'finish' });
        continue;
      }
      expect(Number(answer.headers.get('retry-after'))).to.be.within(1, 15);
      expect((await answer.json()).error.details.budget).to.equal('turnsInFlight');
    }

    // Both places taken on the first instance, which then dies without letting them go.
    const held = await Promise.all([first!.newThread(), first!.newThread()]);
    const holding = await Promise.all(
      held.map((thread) => first!.send('POST', `/threads/${thread}/turn`, turnBody('/slow 60 still going'))),
    );
    expect(holding.map((answer) => answer.status)).to.deep.equal([200, 200]);
    await cluster().kill(0);
    const killedAt = Date.now();
    const thread = await second!.newThread();
    expect((await second!.send('POST', `/threads/${thread}/turn`, turnBody('too soon'))).status).to.equal(429);
    let answer: Response | null = null;
    while (Date.now() - killedAt < 25_000) {
      answer = await second!.send('POST', `/threads/${thread}/turn`, turnBody('after the lease'));
      if (answer.status === 200) break;
      await answer.text();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(answer?.status, 'a place frees once its lease lapses').to.equal(200);
    expect(Date.now() - killedAt).to.be.at.most(20_000);
    await readTurn(answer!);
  });
});
