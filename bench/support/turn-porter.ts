import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPorter } from '../../composition/create-porter.js';
import { zeroLatencyModel } from './quiet-model.js';
import { listen } from './listen.js';
import { timedStream } from './stream-bench.js';

/** First and last body byte of one streamed response, in microseconds. */
export type StreamTiming = { first: number; last: number };

export interface TurnPorter {
  /** Creates a thread and times one turn on it ("hello"), answered by the zero-latency model. */
  turn(): Promise<StreamTiming>;
  close(): Promise<void>;
}

/** A Porter on SQLite in a fresh folder, served over HTTP, whose model streams `tokens` words at once. */
export async function startTurnPorter(folderPrefix: string, tokens: number): Promise<TurnPorter> {
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  const porter = await createPorter(
    {
      principal: () => ({ subject: 'bench', kind: 'user' }),
      model: zeroLatencyModel(tokens),
      databaseUrl: `sqlite:${join(dir, 'porter.db')}`,
      secret: 'b'.repeat(40),
      logger: 'silent',
    },
    {},
  );
  const server = await listen(createServer(porter.listener));
  return {
    async turn() {
      const created = (await (
        await fetch(`${server.url}/api/porter/threads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      ).json()) as { id: string };
      if (!created.id) throw new Error('could not create a thread');
      return timedStream(`${server.url}/api/porter/threads/${created.id}/turn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] } }),
      });
    },
    async close() {
      await server.close();
      await porter.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Thirty warm-up rounds of both, then `iterations` samples of each taken side by side, who goes
 * first alternating so neither always runs on a just-disturbed machine.
 */
export async function sideBySide(
  subject: () => Promise<StreamTiming>,
  anchor: () => Promise<StreamTiming>,
  iterations: number,
): Promise<{ subject: StreamTiming[]; anchor: StreamTiming[] }> {
  for (let i = 0; i < 30; i++) {
    await subject();
    await anchor();
  }
  const subjects: StreamTiming[] = [];
  const anchors: StreamTiming[] = [];
  for (let i = 0; i < iterations; i++) {
    if (i % 2 === 0) {
      subjects.push(await subject());
      anchors.push(await anchor());
    } else {
      anchors.push(await anchor());
      subjects.push(await subject());
    }
  }
  return { subject: subjects, anchor: anchors };
}
