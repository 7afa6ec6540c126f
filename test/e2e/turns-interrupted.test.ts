import { expect } from 'chai';
import type { UIMessage } from 'ai';
import { clusterPerSuite, WIRE } from '../support/turn-cluster.js';
import { readTurn, readUntil, textOf, WireClient } from '../support/turn-client.js';
import { until } from '../support/eventually.js';
import { numberedWords } from '../support/numbered-words.js';

const says = (text: string) => ({ message: { role: 'user', parts: [{ type: 'text', text }] } });
const markOf = (message: UIMessage | undefined) =>
  ((message?.metadata as { interrupted?: { reason: string } } | undefined)?.interrupted?.reason ?? null) as string | null;

for (const engine of ['sqlite', 'postgresql'] as const) {
  describe(`Interrupted answers are marked in the stored thread, and Retry clears the mark (two instances on ${engine})`, function () {
    this.timeout(120_000);
    const cluster = clusterPerSuite(2, engine);
    const clients = () => cluster().instances.map((instance) => new WireClient(`${instance.url}${WIRE}`).as('ada'));
    const messagesOf = async (client: WireClient, thread: string) =>
      (await client.json('GET', `/threads/${thread}`)).body.messages as UIMessage[];
    /** The AI SDK's regenerate, as its chat transport sends it: the last message and the trigger. */
    const retry = async (client: WireClient, thread: string) => {
      const last = (await messagesOf(client, thread)).findLast((message) => message.role === 'user')!;
      return readTurn(await client.send('POST', `/threads/${thread}/turn`, { messages: [last], trigger: 'regenerate-message' }));
    };

    it('marks the answer a failing model could not finish, live and stored, on every instance', async () => {
      const [first, second] = clients();
      const thread = await first!.newThread();
      const failed = await readTurn(await first!.send('POST', `/threads/${thread}/turn`, says('/flaky water the ferns')));
      expect(failed.chunks.some((chunk) => chunk.type === 'error')).to.equal(true);
      expect(markOf(failed.message), "the stock reader's copy").to.equal('model-failed');
      expect((await messagesOf(second!, thread)).map(markOf)).to.deep.equal([null, 'model-failed']);

      const again = await retry(first!, thread);
      expect(textOf(again.message)).to.equal('echo: /flaky water the ferns');
      const stored = await messagesOf(second!, thread);
      expect(stored.map(markOf)).to.deep.equal([null, null]);
      expect(stored).to.have.length(2);
    });

    it('marks the answer of an instance killed mid-turn as cut short; Retry on the other instance answers again', async () => {
      const [doomed, survivor] = clients();
      const thread = await doomed!.newThread();
      const running = await doomed!.send('POST', `/threads/${thread}/turn`, says(`/slow 6 ${numberedWords('k', 40)}`));
      await readUntil(running, 'k3 ');
      // A checkpoint is in the store (at most 2 s in); while the turn lives, readers see it unmarked.
      const live = await until(
        () => messagesOf(survivor!, thread),
        (messages) => messages.length === 2 && textOf(messages[1]!).length > 0,
        { what: 'a checkpoint' },
      );
      expect(markOf(live[1])).to.equal(null);

      await cluster().kill(0);
      // PostgreSQL knows at once (the instance's liveness mark is gone); SQLite once the lease lapses (15 s).
      const after = await until(
        () => messagesOf(survivor!, thread),
        (messages) => markOf(messages[1]) !== null,
        { timeoutMs: 25_000, what: 'the answer to read as cut short' },
      );
      expect(after.map(markOf)).to.deep.equal([null, 'instance-stopped']);
      expect(textOf(after[1]!)).to.match(/^k0 k1 k2 k3/);

      const again = await retry(survivor!, thread);
      expect(textOf(again.message)).to.equal(numberedWords('k', 40));
      const stored = await messagesOf(survivor!, thread);
      expect(stored.map(markOf)).to.deep.equal([null, null]);
    });
  });
}
