import { expect } from 'chai';
import { DIED_MID_TURN } from '../../application/threads/turn-mirrors.js';
import { loadPorterThread, porterChatTransport } from '../../composition/client.js';
import { HeadlessChat } from '../support/headless-chat.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../support/postgres.js';
import { startCluster, WIRE, type TurnCluster } from '../support/turn-cluster.js';
import { readTurn, readUntil, textOf, toolPart, WireClient } from '../support/turn-client.js';
import { until } from '../support/eventually.js';
import { numberedWords } from '../support/numbered-words.js';

const turnBody = (text: string) => ({ message: { role: 'user', parts: [{ type: 'text', text }] } });

/** The instance (by index) that answered the latest request through the balancer. */
const lastServed = (cluster: TurnCluster) => cluster.proxy.served.at(-1)!.upstream;

/** Three instances on one PostgreSQL database behind a round-robin balancer, for the whole describe. */
function onCluster(options: Omit<Parameters<typeof startCluster>[1], 'databaseUrl'>) {
  const state: { cluster: TurnCluster | null; database: TestDatabase | null; client: WireClient | null } = {
    cluster: null,
    database: null,
    client: null,
  };
  before(async function () {
    // Three instances migrate and start: a cap for a busy machine, not a pace.
    this.timeout(180_000);
    const server = await postgresServerUrl();
    if (!server) return this.skip();
    state.database = await createTestDatabase(server);
    state.cluster = await startCluster(3, { ...options, databaseUrl: state.database.url });
    state.client = new WireClient(state.cluster.wire).as('ada');
  });
  after(async function () {
    this.timeout(90_000);
    await state.cluster?.close();
    await state.database?.drop();
  });
  return state;
}

type OnCluster = ReturnType<typeof onCluster>;

/**
 * Starts a paced answer (`/slow <pace>`, words `${prefix}0 …`) on a new thread through the balancer:
 * the turn's response, the words it will say, and the instance running it.
 */
async function startSlowTurn(on: OnCluster, prefix: string, count: number, pace: number) {
  const { cluster, client } = on as { cluster: TurnCluster; client: WireClient };
  const thread = await client.newThread();
  const text = numberedWords(prefix, count);
  const started = await client.send('POST', `/threads/${thread}/turn`, turnBody(`/slow ${pace} ${text}`));
  return { cluster, client, thread, text, started, runner: lastServed(cluster) };
}

describe('Turns on three instances behind a round-robin balancer (PostgreSQL)', function () {
  this.timeout(60_000);

  describe('with concurrentTurns: reject (the default), keep-alives every 0.2 s and a balancer that cuts 3 s of silence', () => {
    // 3 s, not less: on a busy machine a plain request may wait a second or two for its first byte.
    const on = onCluster({ keepAliveSeconds: 0.2, proxy: { idleTimeoutMs: 3_000 } });

    it('streams a turn started on one instance, whole and live, to readers on the other two', async () => {
      const { cluster, client, thread, text, started, runner } = await startSlowTurn(on, 'w', 24, 2);
      const second = await client.send('GET', `/threads/${thread}/stream`);
      const secondServer = lastServed(cluster);
      const third = await client.send('GET', `/threads/${thread}/stream`);
      const thirdServer = lastServed(cluster);
      expect(new Set([runner, secondServer, thirdServer]).size, 'three different instances').to.equal(3);
      expect([second.status, third.status]).to.deep.equal([200, 200]);

      const [own, elsewhere, andElsewhere] = await Promise.all([readTurn(started), readTurn(second), readTurn(third)]);
      for (const turn of [own, elsewhere, andElsewhere]) {
        expect(turn.chunks[0]).to.deep.include({ type: 'start', messageId: own.message.id });
        expect(textOf(turn.message)).to.equal(text);
        expect(turn.chunks.at(-1)).to.deep.include({ type: 'finish' });
        expect(turn.raw.trimEnd().endsWith('data: [DONE]')).to.equal(true);
      }
      const stored = await client.json('GET', `/threads/${thread}`);
      expect(stored.body.messages.map(textOf)).to.deep.equal([`/slow 2 ${text}`, text]);
      expect((await client.send('GET', `/threads/${thread}/stream`)).status, 'nothing in flight').to.equal(204);
    });

    it('resumes a reloaded page on another instance with useChat({ resume: true }) and porterChatTransport', async () => {
      const { cluster } = on as { cluster: TurnCluster };
      const options = { wire: cluster.wire, headers: { 'x-demo-user': 'ada' } };
      const thread = await new WireClient(cluster.wire).as('ada').newThread();
      const text = numberedWords('r', 16);
      const unload = new AbortController();
      const first = new HeadlessChat({
        id: thread,
        transport: porterChatTransport({
          ...options,
          fetch: (input, init) =>
            fetch(input, { ...init, signal: AbortSignal.any([unload.signal, ...(init?.signal ? [init.signal] : [])]) }),
        }),
      });
      void first.sendMessage({ text: `/slow 2 ${text}` });
      await first.until((c) => c.messages.length === 2 && textOf(c.messages[1]!).split(' ').length >= 3, 'the answer to start');
      const runner = cluster.proxy.served.findLast((s) => s.path.endsWith('/turn'))!.upstream;
      unload.abort();

      const stored = await loadPorterThread({ ...options, threadId: thread });
      const second = new HeadlessChat({ id: thread, messages: stored.messages, transport: porterChatTransport(options) });
      await second.resumeStream();
      const rejoinedOn = cluster.proxy.served.findLast((s) => s.path.endsWith('/stream'))!.upstream;
      expect(rejoinedOn, 'the reload landed on another instance').to.not.equal(runner);
      expect(second.status).to.equal('ready');
      expect(second.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant']);
      expect(textOf(second.messages[1]!)).to.equal(text);
    });

    it('refuses a second message with 409 on another instance while the turn runs', async () => {
      const { cluster, client, thread, text, started: running, runner } = await startSlowTurn(on, 'x', 8, 1);
      const refused = await client.json('POST', `/threads/${thread}/turn`, turnBody('me too'));
      expect(lastServed(cluster)).to.not.equal(runner);
      expect(refused.status).to.equal(409);
      expect(refused.body.error.code).to.equal('conflict');
      expect(textOf((await readTurn(running)).message)).to.equal(text);
    });

    it('stops a turn from another instance: its readers see it end, the partial answer is kept, the next turn goes through', async () => {
      const { cluster, client, thread, text, started: running, runner } = await startSlowTurn(on, 's', 40, 8);
      const reader = await client.send('GET', `/threads/${thread}/stream`);
      await readUntil(running.clone(), 's3 ');

      const stopped = await client.json('POST', `/threads/${thread}/stop`, {});
      expect(lastServed(cluster), 'the stop went to another instance').to.not.equal(runner);
      expect(stopped).to.deep.include({ status: 200, body: { stopped: true } });
      const [own, elsewhere] = await Promise.all([readTurn(running), readTurn(reader)]);
      for (const turn of [own, elsewhere]) {
        expect(turn.chunks.slice(-2)).to.deep.equal([
          { type: 'abort', reason: 'stopped' },
          { type: 'finish', finishReason: 'other' },
        ]);
      }
      const kept = textOf(own.message);
      expect(kept.startsWith('s0 s1 s2 s3')).to.equal(true);
      expect(kept.length).to.be.lessThan(text.length);
      expect(textOf(elsewhere.message)).to.equal(kept);
      const stored = await client.json('GET', `/threads/${thread}`);
      expect(textOf(stored.body.messages[1])).to.equal(kept);
      expect((await client.json('POST', `/threads/${thread}/stop`, {})).body, 'again: nothing to stop').to.deep.equal({ stopped: false });
      expect((await new WireClient(cluster.wire).as('bob').json('POST', `/threads/${thread}/stop`, {})).status).to.equal(404);
      expect(textOf((await client.say(thread, 'still there?')).message)).to.equal('echo: still there?');
    });

    it('keeps a turn open through a balancer that cuts silent connections while a tool sleeps, with SSE comments a stock reader skips', async () => {
      const { cluster, client } = on as { cluster: TurnCluster; client: WireClient };
      const thread = await client.newThread();
      const startedAt = Date.now();
      const turn = await readTurn(await client.send('POST', `/threads/${thread}/turn`, turnBody('/call sleep {"seconds": 4}')));
      expect(Date.now() - startedAt, 'longer than the balancer allows silence').to.be.greaterThan(3_000);
      expect(toolPart(turn.message, 'sleep')).to.deep.include({ state: 'output-available', output: { slept: 4 } });
      expect(textOf(turn.message)).to.contain('sleep returned');
      expect(turn.raw.match(/^: keep-alive$/gm)?.length ?? 0).to.be.greaterThan(10);
      expect(cluster.proxy.cut).to.equal(0);
    });

    it('frees the thread of a turn whose instance is killed (kill -9) within 30 s: the user message and the partial answer are kept, readers elsewhere get an error part', async function () {
      this.timeout(90_000);
      const { cluster, client, thread, text, started: running, runner: doomed } = await startSlowTurn(on, 'k', 60, 30);
      const survivor = cluster.instances.findIndex((_, i) => i !== doomed);
      const reader = await fetch(`${cluster.instances[survivor]!.url}${WIRE}/threads/${thread}/stream`, {
        headers: { 'x-demo-user': 'ada' },
      });
      await readUntil(running, 'k4 ');
      // A checkpoint of the answer is in the thread before the crash.
      await until(
        () => client.json('GET', `/threads/${thread}`),
        (read) => read.body.messages.length === 2 && textOf(read.body.messages[1]).includes('k3'),
        { what: 'a checkpoint' },
      );

      await cluster.kill(doomed);
      const killedAt = Date.now();
      const ended = readTurn(reader);
      let next: Response | null = null;
      while (Date.now() - killedAt < 30_000) {
        const attempt = await client.send('POST', `/threads/${thread}/turn`, turnBody('are you back?'));
        if (attempt.status === 200) {
          next = attempt;
          break;
        }
        expect(attempt.status).to.equal(409);
        await attempt.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const tookMs = Date.now() - killedAt;
      expect(next, `a survivor took a new turn within 30 s (waited ${tookMs} ms)`).to.not.equal(null);
      expect(textOf((await readTurn(next!)).message)).to.equal('echo: are you back?');

      const elsewhere = await ended;
      expect(elsewhere.chunks.at(-2)).to.deep.equal({ type: 'error', errorText: DIED_MID_TURN });
      expect(elsewhere.chunks.at(-1)).to.deep.include({ type: 'finish', finishReason: 'error' });
      expect(textOf(elsewhere.message).startsWith('k0 k1 k2 k3 k4')).to.equal(true);

      const stored = (await client.json('GET', `/threads/${thread}`)).body.messages;
      expect(stored.map((m: { role: string }) => m.role)).to.deep.equal(['user', 'assistant', 'user', 'assistant']);
      expect(textOf(stored[0])).to.equal(`/slow 30 ${text}`);
      const partial = textOf(stored[1]);
      expect(partial.startsWith('k0 k1 k2 k3')).to.equal(true);
      expect(partial.length).to.be.lessThan(text.length);
      console.log(`      (the thread took a new turn ${tookMs} ms after the kill)`);
    });
  });

  describe('with concurrentTurns: enqueue', () => {
    const on = onCluster({ concurrentTurns: 'enqueue' });

    it('runs messages sent on other instances after the turn in flight, in the order they came', async () => {
      const { cluster, client, thread, text, started: first, runner } = await startSlowTurn(on, 'a', 12, 1.5);
      const servers = [runner];
      await readUntil(first.clone(), 'a1 ');
      const second = await client.send('POST', `/threads/${thread}/turn`, turnBody('second'));
      servers.push(lastServed(cluster));
      expect(second.status, 'the stream opens at once').to.equal(200);
      const third = await client.send('POST', `/threads/${thread}/turn`, turnBody('third'));
      servers.push(lastServed(cluster));
      expect(new Set(servers).size).to.equal(3);

      const [a, b, c] = await Promise.all([readTurn(first), readTurn(second), readTurn(third)]);
      expect(textOf(a.message)).to.equal(text);
      expect(textOf(b.message)).to.equal('echo: second');
      expect(textOf(c.message)).to.equal('echo: third');
      const stored = (await client.json('GET', `/threads/${thread}`)).body.messages.map(textOf);
      expect(stored).to.deep.equal([`/slow 1.5 ${text}`, text, 'second', 'echo: second', 'third', 'echo: third']);
    });
  });

  describe('with concurrentTurns: interrupt', () => {
    const on = onCluster({ concurrentTurns: 'interrupt' });

    it('stops the turn in flight on another instance, keeps its partial answer, and runs the new message next', async () => {
      const { cluster, client, thread, text, started: first, runner } = await startSlowTurn(on, 'i', 40, 8);
      await readUntil(first.clone(), 'i2 ');
      const second = await client.send('POST', `/threads/${thread}/turn`, turnBody('never mind that'));
      expect(lastServed(cluster)).to.not.equal(runner);
      const [a, b] = await Promise.all([readTurn(first), readTurn(second)]);
      expect(a.chunks.slice(-2)).to.deep.equal([
        { type: 'abort', reason: 'stopped' },
        { type: 'finish', finishReason: 'other' },
      ]);
      expect(textOf(a.message).length).to.be.lessThan(text.length);
      expect(textOf(b.message)).to.equal('echo: never mind that');
      const stored = (await client.json('GET', `/threads/${thread}`)).body.messages.map(textOf);
      expect(stored).to.deep.equal([`/slow 8 ${text}`, textOf(a.message), 'never mind that', 'echo: never mind that']);
    });
  });
});
