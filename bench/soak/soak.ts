/**
 * A soak of issue 32's kind: `npm run soak`. Three Porters (bench/support/turn-mix-server.ts, each
 * its own process, this checkout's `dist/`) on one PostgreSQL database behind a round-robin proxy;
 * people each in conversations back to back (a new thread, an echo, a `/slow 2` answer, a call that
 * asks first, approved over another request, so mostly on another instance, then continued). Midway
 * PostgreSQL is restarted, if PORTER_SOAK_PG_RESTART names the command that does it here (e.g.
 * `pg_ctlcluster --skip-systemctl-redirect 15 main restart`); later one instance is killed (kill -9).
 * Then every thread is read back and checked: no person's message stored twice, every answer a
 * stream delivered whole stored, every approved call executed once, and every thread takes a new
 * message. It prints what the people met and what the check found; it exits 1 on a finding.
 *
 * PORTER_SOAK_PEOPLE (50), PORTER_SOAK_SECONDS (180), PORTER_SOAK_INSTANCES (3); PostgreSQL as the
 * benches find it (PORTER_BENCH_PG_URL, then PORTER_TEST_PG_URL). Not a benchmark: nothing here
 * is timed against an anchor.
 */
import { exec } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UIMessage, UIMessageChunk } from 'ai';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import { startTsx, type TsxProcess } from '../../test/support/child-process.js';
import { roundRobinProxy } from '../../test/support/round-robin-proxy.js';
import { texts } from '../../test/support/turn-chunks.js';
import { readTurn } from '../../test/support/turn-client.js';
import { ensureBuilt } from '../support/built-porter.js';
import { benchPostgresUrl, createBenchDatabase } from '../support/postgres-database.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(ROOT, 'bench', 'support', 'turn-mix-server.ts');
const PEOPLE = Number(process.env.PORTER_SOAK_PEOPLE ?? 50);
const SECONDS = Number(process.env.PORTER_SOAK_SECONDS ?? 180);
const INSTANCES = Number(process.env.PORTER_SOAK_INSTANCES ?? 3);
const RESTART = process.env.PORTER_SOAK_PG_RESTART;
const SLOW = '/slow 2 a slow answer streamed word by word over two seconds, the way a model that thinks aloud would send it to a person';

/** What the people met, by kind (`turn ok`, `turn 503`, `turn error part`…), and what the check found. */
const met = new Map<string, number>();
const found = new Map<string, number>();
const count = (into: Map<string, number>, kind: string) => into.set(kind, (into.get(kind) ?? 0) + 1);

interface Conversation {
  readonly owner: string;
  readonly thread: string;
  /** Each answer whose stream ended with `finish` and `[DONE]` and no error, as `texts` gives it. */
  readonly shown: string[];
  /** Whether its approved call's continuation streamed the call's output. */
  continued: boolean;
}

interface Turned {
  readonly whole: boolean;
  readonly chunks: ReadonlyArray<UIMessageChunk>;
  /** The assistant message as the client built it; a continuation goes on from it. */
  readonly message?: UIMessage;
  /** The answer as `texts` gives it. */
  readonly answer: string;
}

const NOTHING: Turned = { whole: false, chunks: [], answer: '' };

function peopleOn(base: string) {
  const headers = (owner: string) => ({ 'content-type': 'application/json', 'x-subject': owner });

  /** `previous`: the answer a continuation goes on from, as a stock client keeps it. */
  async function turn(owner: string, thread: string, body: unknown, previous?: UIMessage): Promise<Turned> {
    try {
      const response = await fetch(`${base}/threads/${thread}/turn`, {
        method: 'POST',
        headers: headers(owner),
        body: JSON.stringify(body),
      });
      if (!response.ok) {
        count(met, `turn ${response.status}`);
        return NOTHING;
      }
      // Read as a stock AI SDK client reads it.
      const { raw, chunks, message } = await readTurn(response, previous);
      const failed = chunks.some((chunk) => chunk.type === 'error');
      const whole = !failed && chunks.some((chunk) => chunk.type === 'finish') && raw.trimEnd().endsWith('data: [DONE]');
      count(met, whole ? 'turn ok' : failed ? 'turn ended with an error part' : 'turn cut short');
      return { whole, chunks, message, answer: texts([message as UiMessage])[0]! };
    } catch {
      count(met, 'turn: connection lost');
      return NOTHING;
    }
  }

  async function post(owner: string, path: string, body: unknown): Promise<{ id?: string; state?: string } | null> {
    try {
      const response = await fetch(`${base}${path}`, { method: 'POST', headers: headers(owner), body: JSON.stringify(body) });
      if (response.ok) return (await response.json()) as { id?: string; state?: string };
      count(met, `POST ${path.replace(/\/[a-z]+_[0-9A-Z]+/g, '/:id')} ${response.status}`);
    } catch {
      count(met, `POST ${path.replace(/\/[a-z]+_[0-9A-Z]+/g, '/:id')}: connection lost`);
    }
    return null;
  }

  /** One person's conversations back to back until `until`. */
  async function person(owner: string, until: number, conversations: Conversation[]): Promise<void> {
    const pause = () => new Promise((resolve) => setTimeout(resolve, 1_000));
    while (Date.now() < until) {
      const thread = (await post(owner, '/threads', {}))?.id;
      if (!thread) {
        await pause();
        continue;
      }
      const conversation: Conversation = { owner, thread, shown: [], continued: false };
      conversations.push(conversation);
      for (const message of [`hello from ${owner}, conversation ${conversations.length}`, SLOW]) {
        const answered = await turn(owner, thread, { message });
        if (answered.whole) conversation.shown.push(answered.answer);
        else await pause();
      }
      const asked = await turn(owner, thread, { message: '/call notes_add {"text":"buy milk"}' });
      const approvalId = asked.chunks.flatMap((chunk) => (chunk.type === 'tool-approval-request' ? [chunk.approvalId] : []))[0];
      if (!approvalId || (await post(owner, `/approvals/${approvalId}/decide`, { approve: true }))?.state !== 'approved') continue;
      const continued = await turn(owner, thread, { continue: true }, asked.message);
      conversation.continued = continued.whole && continued.chunks.some((chunk) => chunk.type === 'tool-output-available');
    }
  }

  /** Reads the conversation's thread back and counts what does not hold. */
  async function check(conversation: Conversation): Promise<number> {
    const { owner, thread } = conversation;
    const response = await fetch(`${base}/threads/${thread}`, { headers: headers(owner) });
    if (!response.ok) {
      count(found, `thread read ${response.status}`);
      return 0;
    }
    const { messages } = (await response.json()) as { messages: UiMessage[] };
    const stored = texts(messages);
    const said = stored.filter((text) => text.startsWith('user:'));
    if (new Set(said).size !== said.length) count(found, "a person's message stored twice");
    for (const answer of conversation.shown) if (!stored.includes(answer)) count(found, 'an answer shown whole and not stored');
    const outputs = messages
      .flatMap((message) => message.parts)
      .filter((part) => part.type === 'tool-notes_add' && part.state === 'output-available').length;
    if (outputs > 1) count(found, 'an approved call executed twice');
    if (conversation.continued && outputs !== 1) count(found, 'a call whose output was streamed and not stored');
    if (!(await turn(owner, thread, { message: 'still there?' })).whole) count(found, 'a thread that takes no new message');
    return outputs;
  }

  return { person, check };
}

const stopAll = (instances: ReadonlyArray<TsxProcess>) => instances.forEach((instance) => instance.child.kill('SIGTERM'));

async function soak(): Promise<boolean> {
  ensureBuilt();
  const database = await createBenchDatabase(benchPostgresUrl());
  const instances: TsxProcess[] = [];
  const ports: number[] = [];
  try {
    for (let i = 0; i < INSTANCES; i += 1) {
      const { match, ...instance } = await startTsx({
        script: SERVER,
        args: [JSON.stringify({ root: ROOT, databaseUrl: database.url })],
        ready: /listening (\d+)/,
        exited: 'a soak instance exited',
        env: { ...process.env, NODE_ENV: 'production' },
      });
      instances.push(instance);
      ports.push(Number(match[1]));
    }
    const proxy = await roundRobinProxy(ports.map((port) => `http://127.0.0.1:${port}`));
    const people = peopleOn(`${proxy.url}/api/porter`);
    const started = Date.now();
    const at = (share: number, what: string, act: () => void) =>
      setTimeout(
        () => {
          console.log(`${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
          act();
        },
        SECONDS * 1000 * share,
      );
    const faults = [
      RESTART
        ? at(1 / 3, `PostgreSQL restarted (${RESTART})`, () => exec(RESTART, (error) => error && console.error(String(error))))
        : null,
      INSTANCES > 1 ? at(2 / 3, 'one instance killed (kill -9)', () => instances[0]!.child.kill('SIGKILL')) : null,
    ];
    const conversations: Conversation[] = [];
    await Promise.all(Array.from({ length: PEOPLE }, (_, i) => people.person(`soak-${i}`, started + SECONDS * 1000, conversations)));
    faults.forEach((fault) => fault && clearTimeout(fault));
    const turns = met.get('turn ok') ?? 0;
    console.log(`${PEOPLE} people, ${INSTANCES} instances, ${SECONDS} s: ${turns} turns whole (${(turns / SECONDS).toFixed(1)} a second)`);
    console.log('what the people met:', Object.fromEntries(met));
    // A dead instance's threads free within seconds; the check waits a little longer than that.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    let executed = 0;
    for (const conversation of conversations) executed += await people.check(conversation);
    const continued = conversations.filter((conversation) => conversation.continued).length;
    console.log(`${conversations.length} conversations; ${continued} approved calls streamed their output, ${executed} outputs stored`);
    console.log('what the check found:', found.size === 0 ? 'nothing' : Object.fromEntries(found));
    await proxy.close();
    return found.size === 0;
  } finally {
    stopAll(instances);
    await database.drop();
  }
}

process.exit((await soak()) ? 0 : 1);
