import Koa from 'koa';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getRawBody from 'raw-body';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { serve, type RunningServer } from '../../test/support/http-server.js';
import { signedHeaders } from '../../test/support/signed-delivery.js';
import { compare, type BenchResult } from '../support/harness.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const KEY = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
const PAYLOAD = JSON.stringify({
  type: 'order.created',
  data: { id: 42, items: Array.from({ length: 20 }, (_, i) => ({ sku: `sku-${i}`, qty: i })) },
});

/** The anchor: a bare Koa route that reads the body and checks the same Standard Webhooks HMAC, nothing else. */
function bareKoa(): Koa {
  const app = new Koa();
  app.use(async (ctx) => {
    const body = await getRawBody(ctx.req, { limit: 1024 * 1024 });
    const id = ctx.get('webhook-id');
    const timestamp = ctx.get('webhook-timestamp');
    const expected = createHmac('sha256', KEY).update(`${id}.${timestamp}.`).update(body).digest();
    const offered = ctx
      .get('webhook-signature')
      .split(' ')
      .map((s) => Buffer.from(s.split(',')[1] ?? '', 'base64'));
    const ok =
      offered.some((s) => s.length === expected.length && timingSafeEqual(s, expected)) &&
      Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
    ctx.status = ok ? 202 : 401;
    ctx.body = ok ? { runIds: [] } : { error: 'unauthorized' };
  });
  return app;
}

/** Delivery `n`, signed as a sender would (the standardwebhooks library), fresh id each time. */
function delivery(prefix: string, n: number): RequestInit {
  return { method: 'POST', headers: signedHeaders(SECRET, PAYLOAD, `msg_${prefix}_${n}`), body: PAYLOAD };
}

async function porterOn(databaseUrl: string): Promise<{ porter: Porter; server: RunningServer }> {
  const porter = await createPorter(
    {
      development: false,
      secret: 'a-production-secret-for-the-bench-0123456789',
      databaseUrl,
      scheduler: 'external',
      logger: 'silent',
      webhooks: { sources: { bench: { kind: 'standard', secret: SECRET } } },
    },
    {},
  );
  return { porter, server: await serve(porter.listener) };
}

/**
 * bench/webhooks: verified deliveries per second through Porter's wire (verify, dedupe by id with
 * insert-if-absent, audit, look up armed automations) beside a bare Koa route that only reads the
 * body and checks the same HMAC, one delivery at a time over keep-alive HTTP, in the same run.
 * On the memory store the figure is the wire's own cost; on a SQLite file, what a development
 * host pays (two durable writes per delivery).
 */
export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const bare = await serve(bareKoa().callback());
  const folder = await mkdtemp(join(tmpdir(), 'porter-bench-webhooks-'));
  try {
    for (const [label, url] of [
      ['memory store', 'memory:'],
      ['sqlite file', `sqlite:${join(folder, 'webhooks.db')}`],
    ] as const) {
      const { porter, server } = await porterOn(url);
      try {
        results.push(
          await compare({
            name: `${label}: verified delivery`,
            subject: {
              name: 'POST /webhooks/bench',
              run: async (n) => expectStatus(await fetch(`${server.url}${porter.mount}/webhooks/bench`, delivery(label, n)), 202),
            },
            anchor: { name: 'bare Koa + HMAC', run: async (n) => expectStatus(await fetch(bare.url, delivery('bare', n)), 202) },
            iterations: 2_000,
            goal: 0.5,
          }),
        );
      } finally {
        await server.close();
        await porter.close();
      }
    }
  } finally {
    await bare.close();
    await rm(folder, { recursive: true, force: true });
  }
  return results;
}

async function expectStatus(response: Response, status: number): Promise<void> {
  await response.arrayBuffer();
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}`);
}
