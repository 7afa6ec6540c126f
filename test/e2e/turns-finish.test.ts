import { expect } from 'chai';
import { clusterPerSuite, WIRE } from '../support/turn-cluster.js';
import { readTurn, readUntil, textOf, WireClient } from '../support/turn-client.js';
import { until } from '../support/eventually.js';
import { numberedWords } from '../support/numbered-words.js';

/** Two instances on a database of their own (PostgreSQL, or one SQLite file), for the describe that calls it. */
function twoInstances(
  engine: 'postgresql' | 'sqlite',
  options: Parameters<typeof clusterPerSuite>[2],
): () => { first: WireClient; second: WireClient } {
  const cluster = clusterPerSuite(2, engine, options);
  return () => {
    const [first, second] = cluster().instances.map((instance) => new WireClient(`${instance.url}${WIRE}`).as('ada'));
    return { first: first!, second: second! };
  };
}

const says = (text: string, id?: string) => ({ role: 'user', parts: [{ type: 'text', text }], ...(id ? { id } : {}) });

/** Posts a message and reads its answer until `needle`, then goes away as a closed tab does. */
async function postAndLeave(client: WireClient, thread: string, text: string, needle: string): Promise<void> {
  const leave = new AbortController();
  const response = await fetch(`${client.base}/threads/${thread}/turn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...client.headers },
    body: JSON.stringify({ message: says(text) }),
    signal: leave.signal,
  });
  expect(response.status).to.equal(200);
  await readUntil(response, needle);
  leave.abort();
}

/** Joins the thread's stream from `client`'s instance as soon as its turn is in flight; `leave` goes away as a closed tab does. */
function follow(client: WireClient, thread: string, leave?: AbortSignal): Promise<Response> {
  return until(
    () => fetch(`${client.base}/threads/${thread}/stream`, { headers: client.headers, signal: leave }),
    (response) => response.status === 200,
    { what: 'the turn to be in flight' },
  );
}

/**
 * The thread once its turn ended: a next message is refused (409) while a turn is in flight, so the
 * first one that goes through says the turn is over. Sending it reads the thread no other way (a
 * stream rejoined would count as a reader). Its own answer is read, then the thread is returned.
 */
async function afterTheTurn(client: WireClient, thread: string, timeoutMs: number) {
  const next = await until(
    () => client.send('POST', `/threads/${thread}/turn`, { message: 'next' }),
    (response) => response.status !== 409,
    { timeoutMs, what: 'the turn to end' },
  );
  expect(textOf((await readTurn(next)).message)).to.equal('echo: next');
  return (await client.json('GET', `/threads/${thread}`)).body as { messages: Array<{ role: string; parts: unknown[] }> };
}

describe('Turns finish what they start (two instances on one PostgreSQL)', function () {
  this.timeout(90_000);

  describe('by default', () => {
    const instances = twoInstances('postgresql', {});

    it('a poster who leaves while a reader on the other instance follows: the reader gets the whole answer, and the thread keeps it', async () => {
      const { first, second } = instances();
      const thread = await first.newThread();
      const text = numberedWords('f', 12);
      const reading = postAndLeave(first, thread, `/slow 2 ${text}`, 'f1 ');
      const follower = await follow(second, thread);
      await reading;
      const followed = await readTurn(follower);
      expect(textOf(followed.message)).to.equal(text);
      expect(followed.chunks.at(-1)).to.deep.include({ type: 'finish' });
      const stored = (await first.json('GET', `/threads/${thread}`)).body;
      expect(stored.messages.map(textOf)).to.deep.equal([`/slow 2 ${text}`, text]);
    });

    it('a poster who leaves with nobody reading: the turn runs to its end and the whole answer is there when they come back', async () => {
      const { first, second } = instances();
      const thread = await first.newThread();
      const text = numberedWords('n', 12);
      await postAndLeave(first, thread, `/slow 2 ${text}`, 'n0 ');
      const stored = await afterTheTurn(second, thread, 15_000);
      expect(stored.messages.map((m) => textOf(m as never))).to.deep.equal([`/slow 2 ${text}`, text, 'next', 'echo: next']);
    });
  });

  describe('with turnGraceSeconds: 1 (a host that gives up turns nobody reads)', () => {
    const instances = twoInstances('postgresql', { turnGraceSeconds: 1 });

    it('counts a reader on the other instance: the turn outlives its poster by far more than the grace, to its end', async () => {
      const { first, second } = instances();
      const thread = await first.newThread();
      const text = numberedWords('r', 16);
      const reading = postAndLeave(first, thread, `/slow 4 ${text}`, 'r0 ');
      const follower = await follow(second, thread);
      await reading;
      const followed = await readTurn(follower);
      expect(textOf(followed.message)).to.equal(text);
      const stored = (await first.json('GET', `/threads/${thread}`)).body;
      expect(stored.messages.map(textOf)).to.deep.equal([`/slow 4 ${text}`, text]);
    });

    it('gives up a turn nobody reads on any instance after the grace, keeping what it said so far', async () => {
      const { first, second } = instances();
      const thread = await first.newThread();
      const text = numberedWords('g', 40);
      await postAndLeave(first, thread, `/slow 8 ${text}`, 'g0 ');
      const stored = await afterTheTurn(second, thread, 15_000);
      const kept = textOf(stored.messages[1] as never);
      expect(kept.startsWith('g0')).to.equal(true);
      expect(kept.split(' ').length, 'stopped well before its end').to.be.lessThan(30);
    });

    it('gives it up once the reader on the other instance leaves too', async () => {
      const { first, second } = instances();
      const thread = await first.newThread();
      const text = numberedWords('l', 40);
      const reading = postAndLeave(first, thread, `/slow 8 ${text}`, 'l0 ');
      const leave = new AbortController();
      const follower = await follow(second, thread, leave.signal);
      await reading;
      // Read past the grace, so only the reader elsewhere kept the turn going.
      await readUntil(follower, 'l9 ');
      leave.abort();
      const stored = await afterTheTurn(first, thread, 15_000);
      const kept = textOf(stored.messages[1] as never);
      expect(kept.startsWith('l0 l1 l2 l3 l4 l5 l6 l7 l8 l9')).to.equal(true);
      expect(kept.split(' ').length, 'stopped well before its end').to.be.lessThan(36);
    });
  });
});

describe('A message is stored once per id the client gave it (two instances)', function () {
  this.timeout(90_000);

  for (const engine of ['postgresql', 'sqlite'] as const) {
    describe(`on ${engine === 'postgresql' ? 'PostgreSQL' : 'one SQLite file'}`, () => {
      const instances = twoInstances(engine, {});

      if (engine === 'postgresql') {
        it('a retry after the turn ended answers with the stored answer, replayed as a stream, and stores nothing twice', async () => {
          const { first, second } = instances();
          const thread = await first.newThread();
          // The AI SDK chat transport's own body: its message carries the id the client gave it.
          const body = { id: thread, trigger: 'submit-message', messages: [says('hello there', 'client-msg-1')] };
          const answered = await readTurn(await first.send('POST', `/threads/${thread}/turn`, body));
          expect(textOf(answered.message)).to.equal('echo: hello there');
          const retried = await readTurn(await second.send('POST', `/threads/${thread}/turn`, body));
          expect(textOf(retried.message)).to.equal('echo: hello there');
          expect(retried.chunks[0]).to.deep.include({ type: 'start', messageId: answered.message.id });
          expect(retried.chunks.at(-1)).to.deep.include({ type: 'finish' });
          const stored = (await first.json('GET', `/threads/${thread}`)).body;
          expect(stored.messages.map(textOf)).to.deep.equal(['hello there', 'echo: hello there']);
          const next = await second.say(thread, 'and again');
          expect(textOf(next.message), 'a new message still goes through').to.equal('echo: and again');
        });

        it('a retry while the turn runs on the other instance joins it instead of a 409', async () => {
          const { first, second } = instances();
          const thread = await first.newThread();
          const text = numberedWords('j', 10);
          const body = { message: says(`/slow 2 ${text}`, 'client-msg-2') };
          const running = await first.send('POST', `/threads/${thread}/turn`, body);
          await readUntil(running.clone(), 'j0 ');
          const retried = await second.send('POST', `/threads/${thread}/turn`, body);
          expect(retried.status).to.equal(200);
          const [own, again] = await Promise.all([readTurn(running), readTurn(retried)]);
          expect(textOf(again.message)).to.equal(text);
          expect(textOf(own.message)).to.equal(text);
          const stored = (await first.json('GET', `/threads/${thread}`)).body;
          expect(stored.messages.map(textOf)).to.deep.equal([`/slow 2 ${text}`, text]);
        });
      }

      it('the same message posted twice at once, to both instances, is stored once and both get its answer, round after round', async () => {
        const { first, second } = instances();
        for (let round = 0; round < 4; round++) {
          const thread = await first.newThread();
          const body = { messages: [says(`race ${round}`, `race-${round}`)] };
          const responses = await Promise.all([first, second].map((client) => client.send('POST', `/threads/${thread}/turn`, body)));
          expect(
            responses.map((r) => r.status),
            `round ${round}`,
          ).to.deep.equal([200, 200]);
          const answers = await Promise.all(
            responses.map((response) =>
              readTurn(response).then(
                (turn) => textOf(turn.message),
                () => null,
              ),
            ),
          );
          const echo = `echo: race ${round}`;
          // PostgreSQL's feeds carry a turn to readers on every instance; SQLite's stay in their process
          // (SQLite serves one instance), so there the request that lost the race may not follow it.
          if (engine === 'postgresql') expect(answers, `round ${round}`).to.deep.equal([echo, echo]);
          else expect(answers, `round ${round}`).to.include(echo);
          const stored = (await first.json('GET', `/threads/${thread}`)).body;
          expect(stored.messages.map(textOf), `round ${round}`).to.deep.equal([`race ${round}`, `echo: race ${round}`]);
        }
      });
    });
  }
});
