import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import type { BenchResult, Figure } from '../support/harness.js';
import { inScratchFolder } from '../support/scratch-folder.js';

const UPLOAD_BYTES = 10 * 1024 * 1024;
const ROUNDS = 5;

/**
 * A 10 MB upload streamed into the file store (the default: chunks in the store's own database,
 * SQLite here), the client in a process of its own: V8's live heap, sampled after a full
 * collection every 5 ms while it streams, its peak above the idle heap (after a full collection just
 * before); beside it the peak of Buffer memory outside the heap (where the socket's reads and the
 * chunks live; V8 releases it lazily after a collection, so it reads high). The anchor is the same body read and thrown away by a bare Node
 * server: what receiving 10 MB costs at all. Goal: under 2 MB above idle.
 */
export async function run(): Promise<BenchResult[]> {
  const gc = collector();
  return inScratchFolder('porter-uploads-bench-', async (folder) => {
    const porter = await createPorter({
      databaseUrl: `sqlite:${join(folder, 'uploads.db')}`,
      development: true,
      logger: 'silent',
      sandbox: false,
      principal: () => ({ kind: 'user', subject: 'ada' }),
      uploads: { maxBytes: UPLOAD_BYTES + 1024 },
    });
    const porterServer = await listen(createServer(porter.listener));
    const bare = await listen(
      createServer((req, res) => {
        req.on('data', () => undefined);
        req.on('end', () => res.writeHead(201).end('{}'));
      }),
    );
    try {
      const thread = await createThread(porterServer, porter);
      const target = (server: Server) => ({
        port: (server.address() as AddressInfo).port,
        path: `${porter.mount}/threads/${thread}/files?filename=big.png`,
      });
      // Warm both paths once (code loaded, statements prepared).
      await measure(gc, () => send(target(porterServer)));
      await measure(gc, () => send(target(bare)));
      const porterPeaks: number[] = [];
      const barePeaks: number[] = [];
      const porterBuffers: number[] = [];
      const bareBuffers: number[] = [];
      const porterTimes: number[] = [];
      const bareTimes: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const a = await measure(gc, () => send(target(porterServer)));
        porterPeaks.push(a.peak);
        porterBuffers.push(a.buffers);
        porterTimes.push(a.micros);
        const b = await measure(gc, () => send(target(bare)));
        barePeaks.push(b.peak);
        bareBuffers.push(b.buffers);
        bareTimes.push(b.micros);
      }
      const peak = median(porterPeaks);
      const anchorPeak = median(barePeaks);
      return [
        {
          name: '10 MB upload, heap above idle (sqlite)',
          subject: `POST /threads/:id/files, heap +${mb(peak)}, buffers +${mb(median(porterBuffers))}`,
          figure: figureOf(porterTimes),
          anchor: { name: `bare body read, heap +${mb(anchorPeak)}, buffers +${mb(median(bareBuffers))}`, figure: figureOf(bareTimes) },
          goal: 0,
          absoluteGoal: { met: peak < 2 * 1024 * 1024, text: `peak heap above idle ${mb(peak)} (median of ${ROUNDS}); goal < 2 MB` },
        },
      ];
    } finally {
      await close(porterServer);
      await close(bare);
      await porter.close();
    }
  });
}

/** A full collection, from V8's own gc() made reachable for this process. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** V8's used heap, and the Buffers' memory outside it (which the socket's reads also use). */
function memory(): { heap: number; buffers: number } {
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, buffers: usage.arrayBuffers };
}

async function measure(gc: () => void, work: () => Promise<void>): Promise<{ peak: number; buffers: number; micros: number }> {
  gc();
  const idle = memory();
  let peak = 0;
  let buffers = 0;
  // What the upload holds, not what it dropped: each sample follows a full collection, so garbage
  // awaiting the collector (the socket's spent Buffers) is not counted as memory in use.
  const sampler = setInterval(() => {
    gc();
    const now = memory();
    peak = Math.max(peak, now.heap - idle.heap);
    buffers = Math.max(buffers, now.buffers - idle.buffers);
  }, 5);
  const started = process.hrtime.bigint();
  await work();
  const micros = Number(process.hrtime.bigint() - started) / 1000;
  clearInterval(sampler);
  return { peak, buffers, micros };
}

/**
 * The client, in a process of its own so its buffers are not counted: streams the upload from one
 * reused 64 KiB piece (a PNG signature first) and exits 0 on a 201.
 */
const CLIENT = `
const { request } = require('node:http');
const [port, path, size] = process.argv.slice(1);
const total = Number(size);
const piece = Buffer.alloc(64 * 1024, 7);
const first = Buffer.from(piece);
Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(first);
const req = request({ host: '127.0.0.1', port: Number(port), path, method: 'POST', headers: { 'content-type': 'image/png', 'content-length': total } }, (res) => {
  res.resume();
  res.on('end', () => process.exit(res.statusCode === 201 ? 0 : 1));
});
let sent = 0;
const pump = () => {
  while (sent < total) {
    const chunk = sent === 0 ? first : piece;
    sent += chunk.length;
    if (!req.write(chunk)) return void req.once('drain', pump);
  }
  req.end();
};
pump();
`;

function send(target: { port: number; path: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT, String(target.port), target.path, String(UPLOAD_BYTES)], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the upload client exited ${code}`))));
  });
}

async function createThread(server: Server, porter: Porter): Promise<string> {
  const { port } = server.address() as AddressInfo;
  const answer = await fetch(`http://127.0.0.1:${port}${porter.mount}/threads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  return ((await answer.json()) as { id: string }).id;
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function figureOf(micros: number[]): Figure {
  const p50 = median(micros);
  return { opsPerSecond: 1e6 / p50, p50Micros: p50, p99Micros: Math.max(...micros), operations: micros.length };
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}
