import type { BenchResult } from '../support/harness.js';
import { benchDatabaseOrSkip } from '../support/postgres-database.js';
import { latencyFigure, readStamps, startStreamServer } from '../support/stream-bench.js';

const TURNS = 5;
const CHUNKS = 200;
const INTERVAL_MS = 20;

/**
 * bench/rejoin: how much later a turn's chunk reaches a reader on another instance than a reader on
 * the instance running the turn. Two Porter processes on one PostgreSQL database; the model stamps
 * each chunk with the instant it emitted it; a reader of the turn on its own instance (the anchor)
 * and a reader that rejoined it on the other (`GET /threads/:id/stream`, following the turn's feed:
 * an INSERT with NOTIFY, then a SELECT on the wake-up) each note when every chunk arrived. Only
 * chunks emitted after the second reader joined count. Goal: p50 added latency under 10 ms.
 */
export async function run(): Promise<BenchResult[]> {
  const database = await benchDatabaseOrSkip('rejoin');
  if (!database) return [];
  const running = await startStreamServer({ kind: 'porter', databaseUrl: database.url });
  const other = await startStreamServer({ kind: 'porter', databaseUrl: database.url });
  const json = { 'content-type': 'application/json' };
  try {
    const local: number[] = [];
    const remote: number[] = [];
    const added: number[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      const { id } = (await (await fetch(`${running.url}/api/porter/threads`, { method: 'POST', headers: json, body: '{}' })).json()) as {
        id: string;
      };
      const localArrivals = new Map<number, number>();
      const remoteArrivals = new Map<number, number>();
      const started = await fetch(`${running.url}/api/porter/threads/${id}/turn`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ message: `clock ${CHUNKS} ${INTERVAL_MS}` }),
      });
      const reading = readStamps(started, (emitted, arrived) => localArrivals.set(emitted, arrived));
      // Let the turn run a while, so the other reader replays first and then follows live.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const rejoined = await fetch(`${other.url}/api/porter/threads/${id}/stream`);
      const joinedAt = performance.timeOrigin + performance.now();
      await Promise.all([reading, readStamps(rejoined, (emitted, arrived) => remoteArrivals.set(emitted, arrived))]);
      for (const [emitted, there] of remoteArrivals) {
        const here = localArrivals.get(emitted);
        // Only what the rejoined reader received live, after its replay had caught up.
        if (here === undefined || emitted < joinedAt + 100) continue;
        local.push(here - emitted);
        remote.push(there - emitted);
        added.push(there - here);
      }
    }
    const addedFigure = latencyFigure(added);
    return [
      {
        name: 'a live chunk, reader on another instance (PostgreSQL)',
        subject: 'rejoined reader',
        figure: latencyFigure(remote),
        anchor: { name: 'reader on the running instance', figure: latencyFigure(local) },
        goal: 0,
        measure: 'p50',
        absoluteGoal: {
          met: addedFigure.p50Micros < 10_000,
          text: `added p50 ${(addedFigure.p50Micros / 1000).toFixed(2)} ms, p99 ${(addedFigure.p99Micros / 1000).toFixed(2)} ms over ${added.length} chunks; goal p50 < 10 ms`,
        },
      },
    ];
  } finally {
    await running.close();
    await other.close();
    await database.drop();
  }
}
