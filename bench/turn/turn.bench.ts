import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamText } from 'ai';
import { createPorter } from '../../composition/create-porter.js';
import type { BenchResult } from '../support/harness.js';
import { zeroLatencyModel } from '../support/quiet-model.js';
import { listen } from '../support/listen.js';
import { microsFigure, timedStream } from '../support/stream-bench.js';

const TOKENS = 500;
const ITERATIONS = 300;

/**
 * A full turn through the wire (Koa, the guard, SQLite persistence, SSE) with a zero-latency model
 * streaming 500 tokens, beside a bare Node server streaming the same model with the AI SDK's own
 * `streamText(...).pipeUIMessageStreamToResponse()`. Goals: p50 time to last byte ≤ 1.3× the bare
 * server; time to first byte under 5 ms more than the bare server's.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'porter-bench-turn-'));
  const porter = await createPorter(
    {
      principal: () => ({ subject: 'bench', kind: 'user' }),
      model: zeroLatencyModel(TOKENS),
      databaseUrl: `sqlite:${join(dir, 'porter.db')}`,
      secret: 'b'.repeat(40),
      logger: 'silent',
    },
    {},
  );
  const porterServer = await listen(createServer(porter.listener));
  const bareModel = zeroLatencyModel(TOKENS);
  const bareServer = await listen(
    createServer((_req, res) => streamText({ model: bareModel, prompt: 'hello' }).pipeUIMessageStreamToResponse(res)),
  );
  try {
    const porterTurn = async () => {
      const created = (await (
        await fetch(`${porterServer.url}/api/porter/threads`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).json()) as { id: string };
      if (!created.id) throw new Error('could not create a thread');
      return timedStream(`${porterServer.url}/api/porter/threads/${created.id}/turn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] } }),
      });
    };
    const bareTurn = () => timedStream(`${bareServer.url}/`, { method: 'POST' });

    for (let i = 0; i < 30; i++) {
      await porterTurn();
      await bareTurn();
    }
    const subject: Array<{ first: number; last: number }> = [];
    const anchor: Array<{ first: number; last: number }> = [];
    for (let i = 0; i < ITERATIONS; i++) {
      // Alternate who goes first, so neither always runs on a just-disturbed machine.
      if (i % 2 === 0) {
        subject.push(await porterTurn());
        anchor.push(await bareTurn());
      } else {
        anchor.push(await bareTurn());
        subject.push(await porterTurn());
      }
    }
    const lastByte = (samples: typeof subject) => microsFigure(samples.map((s) => s.last));
    const firstByte = (samples: typeof subject) => microsFigure(samples.map((s) => s.first));
    const ttlb: BenchResult = {
      name: `turn, ${TOKENS} tokens: time to last byte`,
      subject: 'Porter wire',
      figure: lastByte(subject),
      anchor: { name: 'bare streamText', figure: lastByte(anchor) },
      goal: 1 / 1.3,
      measure: 'p50',
    };
    const addedFirst = firstByte(subject).p50Micros - firstByte(anchor).p50Micros;
    const ttfb: BenchResult = {
      name: `turn, ${TOKENS} tokens: time to first byte`,
      subject: 'Porter wire',
      figure: firstByte(subject),
      anchor: { name: 'bare streamText', figure: firstByte(anchor) },
      goal: 0,
      measure: 'p50',
      absoluteGoal: { met: addedFirst < 5_000, text: `added p50 ${(addedFirst / 1000).toFixed(2)} ms; goal < 5 ms` },
    };
    return [ttlb, ttfb];
  } finally {
    await porterServer.close();
    await bareServer.close();
    await porter.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
