import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Figure } from './harness.js';
import { stampNow } from './clock-model.js';
import { startTsx } from '../../test/support/child-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(ROOT, 'bench', 'support', 'stream-server.ts');

export interface StreamServer {
  readonly url: string;
  /** The server's heap (used + external) and resident size after a full GC, in bytes. */
  memory(): Promise<{ heap: number; rss: number }>;
  close(): Promise<void>;
}

/** Starts bench/support/stream-server.ts as a process of its own (with `--expose-gc`). */
export async function startStreamServer(options: { kind: 'porter' | 'bare'; databaseUrl?: string }): Promise<StreamServer> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  const { child, match } = await startTsx({
    script: SERVER,
    args: [JSON.stringify(options)],
    nodeArgs: ['--expose-gc', '--max-old-space-size=2048'],
    env,
    ready: /listening (\d+)/,
    exited: 'the stream server exited',
  });
  const url = `http://127.0.0.1:${Number(match[1])}`;
  return {
    url,
    memory: async () => (await (await fetch(`${url}/memory`)).json()) as { heap: number; rss: number },
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Reads an SSE turn of the clock model, calling `delta` with each text delta's emission instant
 * and its arrival here (both `stampNow()` milliseconds). Resolves when the stream ends.
 */
export async function readStamps(response: Response, delta: (emitted: number, arrived: number) => void): Promise<void> {
  if (!response.ok || !response.body) throw new Error(`the stream answered ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body.getReader();
  for (;;) {
    const { done, value: bytes } = await reader.read();
    if (done) break;
    const arrived = stampNow();
    buffer += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!event.startsWith('data: {')) continue;
      const chunk = JSON.parse(event.slice(6)) as { type: string; delta?: string };
      if (chunk.type === 'text-delta' && chunk.delta) delta(Number.parseFloat(chunk.delta), arrived);
    }
  }
}

/** A figure of latencies given in microseconds (throughput: samples per second of latency, as the harness reports). */
export function microsFigure(micros: readonly number[]): Figure {
  const sorted = [...micros].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
  const total = micros.reduce((sum, value) => sum + value, 0);
  return { opsPerSecond: micros.length / (total / 1e6), p50Micros: at(0.5), p99Micros: at(0.99), operations: micros.length };
}

/** A figure of latencies given in milliseconds. */
export function latencyFigure(millis: readonly number[]): Figure {
  return microsFigure(millis.map((value) => value * 1000));
}

/** Times a streamed response: first body byte and last body byte, in microseconds. */
export async function timedStream(url: string, init: RequestInit): Promise<{ first: number; last: number }> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const reader = response.body!.getReader();
  let first = -1;
  for (;;) {
    const { done } = await reader.read();
    if (first < 0) first = Number(process.hrtime.bigint() - started) / 1000;
    if (done) break;
  }
  return { first, last: Number(process.hrtime.bigint() - started) / 1000 };
}
