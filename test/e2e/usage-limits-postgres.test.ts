import { expect } from 'chai';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../support/postgres.js';
import { startCluster, WIRE, type TurnCluster } from '../support/turn-cluster.js';
import { readTurn, WireClient } from '../support/turn-client.js';

const turnBody = (text: string) => ({ message: { role: 'user', parts: [{ type: 'text', text }] } });

describe('Usage limits on two instances sharing one PostgreSQL', function () {
  this.timeout(90_000);
  let database: TestDatabase | null = null;
  let cluster: TurnCluster | null = null;

  before(async function () {
    const server = await postgresServerUrl();
    if (!server) return this.skip();
    database = await createTestDatabase(server);
    cluster = await startCluster(2, { databaseUrl: database.url, limits: { turns: { max: 2, windowSeconds: 3600 } } });
  });
  after(async function () {
    await cluster?.close();
    await database?.drop();
  });

  it('a subject racing its last turn from both instances spends it exactly once, round after round; the other gets 429 with Retry-After', async () => {
    const [first, second] = cluster!.instances.map((instance) => new WireClient(`${instance.url}${WIRE}`));
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
