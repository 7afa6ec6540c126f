import { createServer } from 'node:http';
import { pipeUIMessageStreamToResponse, streamText, toUIMessageStream } from 'ai';
import type { BenchResult } from '../support/harness.js';
import { zeroLatencyModel } from '../support/quiet-model.js';
import { listen } from '../support/listen.js';
import { microsFigure, timedStream } from '../support/stream-bench.js';
import { sideBySide, startTurnPorter } from '../support/turn-porter.js';

const TOKENS = 500;
const ITERATIONS = 300;

/**
 * A full turn through the wire (Koa, the guard, SQLite persistence, SSE) with a zero-latency model
 * streaming 500 tokens, beside a bare Node server streaming the same model with the AI SDK's own
 * `pipeUIMessageStreamToResponse` of `streamText(...)`. Goals: p50 time to last byte ≤ 1.3× the bare
 * server; time to first byte under 5 ms more than the bare server's.
 */
export async function run(): Promise<BenchResult[]> {
  const porter = await startTurnPorter('porter-bench-turn-', TOKENS);
  const bareModel = zeroLatencyModel(TOKENS);
  const bareServer = await listen(
    createServer((_req, res) =>
      pipeUIMessageStreamToResponse({
        response: res,
        stream: toUIMessageStream({ stream: streamText({ model: bareModel, prompt: 'hello' }).stream }),
      }),
    ),
  );
  try {
    const bareTurn = () => timedStream(`${bareServer.url}/`, { method: 'POST' });
    const { subject, anchor } = await sideBySide(() => porter.turn(), bareTurn, ITERATIONS);
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
    await bareServer.close();
    await porter.close();
  }
}
