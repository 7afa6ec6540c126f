import { createServer } from 'node:http';
import { createPorter } from '../../composition/create-porter.js';
import { compare, type BenchResult } from '../support/harness.js';
import { zeroLatencyModel } from '../support/quiet-model.js';
import { listen } from '../support/listen.js';

const TOKENS = 50;
const ORIGIN = 'http://porter.bench';

/**
 * The Web-standard mount beside the Node listener. `porter.fetch` takes a `Request` in process and
 * crosses an in-memory connection; the anchor is a real client (`fetch`) reaching `porter.listener`
 * over a loopback socket, as a host's own server would be reached. Goal: the bridge costs no more
 * than that hop (throughput ≥ 0.8× for a small request; p50 ≥ 0.8× for a short turn).
 */
export async function run(): Promise<BenchResult[]> {
  const porter = await createPorter(
    {
      principal: () => ({ subject: 'bench', kind: 'user' }),
      model: zeroLatencyModel(TOKENS),
      databaseUrl: 'memory:',
      secret: 'b'.repeat(40),
      logger: 'silent',
    },
    {},
  );
  const listener = await listen(createServer(porter.listener));
  const viaFetch = (path: string, init?: RequestInit) => porter.fetch(new Request(`${ORIGIN}${porter.mount}${path}`, init));
  const viaListener = (path: string, init?: RequestInit) => fetch(`${listener.url}${porter.mount}${path}`, init);
  type Send = typeof viaFetch;

  const status = (send: Send) => async () => {
    const response = await send('/status');
    if (response.status !== 200) throw new Error(`/status answered ${response.status}`);
    await response.arrayBuffer();
  };
  const json = { 'content-type': 'application/json' };
  const turn = (send: Send) => async () => {
    const created = (await (await send('/threads', { method: 'POST', headers: json, body: '{}' })).json()) as { id?: string };
    if (!created.id) throw new Error('could not create a thread');
    const response = await send(`/threads/${created.id}/turn`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] } }),
    });
    if (!response.ok) throw new Error(`the turn answered ${response.status}`);
    const text = await response.text();
    if (!text.trimEnd().endsWith('data: [DONE]')) throw new Error('the turn did not finish');
  };

  try {
    return [
      await compare({
        name: 'GET /status',
        subject: { name: 'porter.fetch', run: status(viaFetch) },
        anchor: { name: 'listener over loopback', run: status(viaListener) },
        iterations: 3000,
        goal: 0.8,
      }),
      await compare({
        name: `new thread + ${TOKENS}-token turn, to the last byte`,
        subject: { name: 'porter.fetch', run: turn(viaFetch) },
        anchor: { name: 'listener over loopback', run: turn(viaListener) },
        iterations: 400,
        goal: 0.8,
        measure: 'p50',
      }),
    ];
  } finally {
    await listener.close();
    await porter.close();
  }
}
