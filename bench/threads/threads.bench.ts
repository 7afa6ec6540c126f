import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { openStore } from '../../adapters/store/open-store.js';
import { SystemClock } from '../../adapters/runtime/system-clock.js';
import { compare, type BenchResult } from '../support/harness.js';

const THREADS = 10_000;
const OWNER = 'bench-owner';

/**
 * `GET /threads` (a page of 50) through the wire on SQLite: 10,000 threads of 200 messages beside
 * 10,000 threads of 2 messages. The list reads summaries only, so the message count must not
 * matter. Goals: ratio ≤ 1.1 (the 200-message store at ≥ 0.91× the 2-message store's p50) and
 * under 10 ms p50.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'porter-bench-threads-'));
  const small = join(dir, 'two-messages.db');
  const large = join(dir, 'two-hundred-messages.db');
  const hosts: Array<{ porter: Porter; server: Server }> = [];
  try {
    await seed(small, 2);
    await seed(large, 200);
    const smallUrl = await serve(small, hosts);
    const largeUrl = await serve(large, hosts);
    const page = async (url: string) => {
      const response = await fetch(`${url}/api/porter/threads?limit=50`);
      const body = (await response.json()) as { threads: unknown[] };
      if (body.threads.length !== 50) throw new Error('expected a full page');
    };
    const result = await compare({
      name: 'GET /threads?limit=50, 10,000 threads (sqlite)',
      subject: { name: '200 messages each', run: () => page(largeUrl) },
      anchor: { name: '2 messages each', run: () => page(smallUrl) },
      iterations: 2_000,
      goal: 1 / 1.1,
      measure: 'p50',
    });
    const p50 = result.figure.p50Micros / 1000;
    return [
      {
        ...result,
        absoluteGoal: {
          met: result.anchor.figure.p50Micros / result.figure.p50Micros >= 1 / 1.1 && p50 < 10,
          text: `ratio ≤ 1.1 and p50 ${p50.toFixed(2)} ms < 10 ms`,
        },
      },
    ];
  } finally {
    for (const { porter, server } of hosts) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await porter.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

async function serve(file: string, hosts: Array<{ porter: Porter; server: Server }>): Promise<string> {
  const porter = await createPorter(
    { principal: () => ({ subject: OWNER, kind: 'user' }), databaseUrl: `sqlite:${file}`, secret: 's'.repeat(40), logger: 'silent' },
    {},
  );
  const server = createServer(porter.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hosts.push({ porter, server });
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** Builds the schema through the store (its migrations), then bulk-loads threads with the raw driver. */
async function seed(file: string, messagesPerThread: number): Promise<void> {
  await (await openStore(`sqlite:${file}`, { clock: new SystemClock() })).close();
  const db = new Database(file);
  const exec = async (sql: string, params: unknown[] = []) => void db.prepare(sql).run(params);
  await exec('pragma synchronous = off');
  await exec('begin');
  const started = Date.UTC(2026, 0, 1);
  const insert = async (rows: unknown[][]) => {
    if (rows.length === 0) return;
    const placeholders = rows.map(() => '(?, ?, ?, ?, 1, ?, ?)').join(', ');
    await exec(
      `insert into porter_records (collection, id, data, refs, revision, created_at, updated_at) values ${placeholders}`,
      rows.flat(),
    );
  };
  let batch: unknown[][] = [];
  const flush = async (force = false) => {
    if (batch.length >= 150 || (force && batch.length)) {
      await insert(batch);
      batch = [];
    }
  };
  for (let t = 0; t < THREADS; t++) {
    const id = `thr_${String(t).padStart(26, '0')}`;
    const at = started + t * 1000;
    const iso = new Date(at).toISOString();
    const summary = {
      id,
      owner: OWNER,
      title: `Thread ${t}`,
      createdAt: iso,
      updatedAt: iso,
      messageCount: messagesPerThread,
      activeTurn: null,
    };
    batch.push(['threads', id, JSON.stringify(summary), JSON.stringify({ owner: OWNER }), at, at]);
    await flush();
    for (let m = 0; m < messagesPerThread; m++) {
      const messageId = `msg_${String(t).padStart(13, '0')}${String(m).padStart(13, '0')}`;
      const message = {
        id: messageId,
        role: m % 2 ? 'assistant' : 'user',
        parts: [{ type: 'text', text: `message ${m} of thread ${t}, long enough to look like a sentence.` }],
      };
      batch.push(['thread-messages', messageId, JSON.stringify(message), JSON.stringify({ thread: id }), at + m, at + m]);
      await flush();
    }
  }
  await flush(true);
  await exec('commit');
  db.close();
}
