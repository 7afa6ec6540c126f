import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPorter } from '../../composition/create-porter.js';
import type { BenchResult } from '../support/harness.js';
import { zeroLatencyModel } from '../support/quiet-model.js';
import { listen } from '../support/listen.js';
import { microsFigure } from '../support/stream-bench.js';
import { sideBySide, type StreamTiming } from '../support/turn-porter.js';
import { benchDatabaseOrSkip, type BenchDatabase } from '../support/postgres-database.js';

const MEMORIES = 200;
const ITERATIONS = 300;
const MESSAGE = 'What should I cook for dinner this weekend, given what you know about me?';

/**
 * A turn with recall beside the same turn without it, in the same run: two Porters alike (the same
 * zero-latency model, tools and store engine, the same person keeping the default cap of 200
 * memories, a tenth of them about food), one recalling into every turn (`recallTokens` 400, the
 * default) and one with recall off (`recallTokens: 0`). Time to first byte is to the first text
 * delta, which comes after the recall (the stream's `start` comes before it). Goal: recall adds
 * under 10 ms p50.
 */
export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'porter-bench-recall-'));
  try {
    results.push(await compare('SQLite file', (name) => `sqlite:${join(folder, `${name}.db`)}`));
    const databases: BenchDatabase[] = [];
    try {
      const first = await benchDatabaseOrSkip('memory recall');
      const second = first ? await benchDatabaseOrSkip('memory recall') : null;
      if (first && second) {
        databases.push(first, second);
        results.push(await compare('PostgreSQL', (name) => (name === 'recall' ? first.url : second.url)));
      }
    } finally {
      for (const database of databases) await database.drop();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return results;
}

async function compare(engine: string, databaseUrl: (name: 'recall' | 'none') => string): Promise<BenchResult> {
  const recalling = await memoryPorter(databaseUrl('recall'), 400);
  const plain = await memoryPorter(databaseUrl('none'), 0);
  try {
    const { subject, anchor } = await sideBySide(
      () => recalling.turn(),
      () => plain.turn(),
      ITERATIONS,
    );
    const first = (samples: StreamTiming[]) => microsFigure(samples.map((s) => s.first));
    const added = first(subject).p50Micros - first(anchor).p50Micros;
    return {
      name: `turn with recall (${MEMORIES} memories, ${engine}): time to first text`,
      subject: 'recall on',
      figure: first(subject),
      anchor: { name: 'recall off', figure: first(anchor) },
      goal: 0,
      measure: 'p50',
      absoluteGoal: { met: added < 10_000, text: `added p50 ${(added / 1000).toFixed(2)} ms; goal < 10 ms` },
    };
  } finally {
    await recalling.close();
    await plain.close();
  }
}

/** A Porter whose one person keeps MEMORIES memories, recalling up to `recallTokens` into each turn. */
async function memoryPorter(databaseUrl: string, recallTokens: number) {
  const porter = await createPorter(
    {
      principal: () => ({ subject: 'bench', kind: 'user' }),
      model: zeroLatencyModel(50),
      databaseUrl,
      secret: 'b'.repeat(40),
      logger: 'silent',
      memory: { recallTokens },
    },
    {},
  );
  const server = await listen(createServer(porter.listener));
  const wire = `${server.url}/api/porter`;
  const post = (path: string, body: unknown) =>
    fetch(`${wire}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  for (let i = 0; i < MEMORIES; i++) {
    const text =
      i % 10 === 0
        ? `Memory ${i}: the person likes to cook ${['pasta', 'curry', 'stews', 'salads'][i % 4]} for dinner at the weekend`
        : `Memory ${i}: a detail about project ${i}, its deadline in week ${i % 52} and the colleague who reviews it`;
    const answer = await post('/memories', { text });
    if (answer.status !== 201) throw new Error(`could not seed a memory: ${answer.status}`);
  }
  return {
    async turn(): Promise<StreamTiming> {
      const created = (await (await post('/threads', {})).json()) as { id: string };
      return firstText(() => post(`/threads/${created.id}/turn`, { message: { role: 'user', parts: [{ type: 'text', text: MESSAGE }] } }));
    },
    async close() {
      await server.close();
      await porter.close();
    },
  };
}

/** Reads a turn to its end: when its first text delta arrived (`first`) and its last byte (`last`), in microseconds from the request. */
async function firstText(request: () => Promise<Response>): Promise<StreamTiming> {
  const started = process.hrtime.bigint();
  const response = await request();
  if (!response.ok) throw new Error(`the turn answered ${response.status}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  let first = -1;
  for (;;) {
    const { done, value } = await reader.read();
    if (first < 0) {
      seen += decoder.decode(value ?? new Uint8Array(), { stream: true });
      if (seen.includes('"type":"text-delta"')) first = Number(process.hrtime.bigint() - started) / 1000;
    }
    if (done) break;
  }
  if (first < 0) throw new Error('the turn streamed no text');
  return { first, last: Number(process.hrtime.bigint() - started) / 1000 };
}
