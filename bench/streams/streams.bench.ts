import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult, Figure } from '../support/harness.js';
import { stampNow } from '../support/clock-model.js';
import { latencyFigure, readStamps, startStreamServer, type StreamServer } from '../support/stream-bench.js';

const STREAMS = 1_000;
/** Each turn streams a chunk this often, for longer than the bench reads it. */
const INTERVAL_MS = 1_000;
const CHUNKS = 300;
/** Once every stream is open: a pause, then the window whose chunks are measured; then the readers leave. */
const SETTLE_MS = 2_000;
const WINDOW_MS = 15_000;

interface Held {
  readonly memoryPerStream: number;
  readonly rssPerStream: number;
  readonly delays: number[];
  readonly openMs: number;
}

/**
 * bench/streams: one instance holding 1,000 live turns, each read by its client (a Porter turn on a
 * SQLite file, over the wire: the lease, the feed, checkpoints), beside a bare AI SDK server
 * (`streamText(...).pipeUIMessageStreamToResponse()`) holding 1,000 streams of the same model. Each
 * server is its own process; the figures are its heap (used + external, after a full GC) per open
 * stream, and how late chunks reach their readers (the model stamps each with the instant it
 * emitted it) while all 1,000 are open.
 */
export async function run(): Promise<BenchResult[]> {
  const folder = await mkdtemp(join(tmpdir(), 'porter-bench-streams-'));
  try {
    const porter = await hold('porter', folder);
    const bare = await hold('bare', folder);
    const delay = (held: Held): Figure => latencyFigure(held.delays);
    const perStream = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    return [
      {
        name: `${STREAMS.toLocaleString('en-US')} live turns on one instance: chunk delay`,
        subject: 'Porter (SQLite)',
        figure: delay(porter),
        anchor: { name: 'bare AI SDK server', figure: delay(bare) },
        goal: 0,
        measure: 'p50',
        absoluteGoal: {
          met: true,
          text:
            `p99 ${(delay(porter).p99Micros / 1000).toFixed(1)} ms vs ${(delay(bare).p99Micros / 1000).toFixed(1)} ms; ` +
            `heap per open stream ${perStream(porter.memoryPerStream)} vs ${perStream(bare.memoryPerStream)}, ` +
            `RSS ${perStream(porter.rssPerStream)} vs ${perStream(bare.rssPerStream)}; opened in ${(porter.openMs / 1000).toFixed(1)} s vs ${(bare.openMs / 1000).toFixed(1)} s`,
        },
      },
    ];
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function hold(kind: 'porter' | 'bare', folder: string): Promise<Held> {
  const server: StreamServer = await startStreamServer({ kind, databaseUrl: `sqlite:${join(folder, `${kind}.db`)}` });
  try {
    const prompt = `clock ${CHUNKS} ${INTERVAL_MS}`;
    const leave = new AbortController();
    const open = async (text = prompt): Promise<Response> => {
      const signal = leave.signal;
      if (kind === 'bare') return fetch(server.url, { method: 'POST', headers: { 'x-prompt': text }, signal });
      const created = await fetch(`${server.url}/api/porter/threads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const { id } = (await created.json()) as { id: string };
      return fetch(`${server.url}/api/porter/threads/${id}/turn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: text }),
        signal,
      });
    };
    // Warm the server (JIT, statements) with a few short streams, then measure its resting memory.
    await Promise.all(Array.from({ length: 20 }, async () => readStamps(await open('clock 5 10'), () => undefined)));
    const before = await server.memory();

    const samples: Array<{ emitted: number; arrived: number }> = [];
    const started = stampNow();
    const readers: Promise<void>[] = [];
    // Opened in waves, as clients arrive, not in one burst.
    for (let wave = 0; wave < STREAMS; wave += 50) {
      const opened = await Promise.all(Array.from({ length: Math.min(50, STREAMS - wave) }, () => open()));
      for (const response of opened)
        readers.push(readStamps(response, (emitted, arrived) => samples.push({ emitted, arrived })).catch(() => undefined));
    }
    const allOpen = stampNow();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const during = await server.memory();
    const measuredFrom = stampNow();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const measuredTo = stampNow();
    leave.abort();
    await Promise.all(readers);
    const delays = samples.filter((s) => s.emitted >= measuredFrom && s.emitted <= measuredTo).map((s) => s.arrived - s.emitted);
    if (delays.length < STREAMS) throw new Error(`too few chunks measured while all streams were open (${delays.length})`);
    return {
      memoryPerStream: (during.heap - before.heap) / STREAMS,
      rssPerStream: (during.rss - before.rss) / STREAMS,
      delays,
      openMs: allOpen - started,
    };
  } finally {
    await server.close();
  }
}
