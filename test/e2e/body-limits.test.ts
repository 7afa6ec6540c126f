import { expect } from 'chai';
import Koa from 'koa';
import { mkdtempSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingMessage, type RequestListener } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { serve, type RunningServer } from '../support/http-server.js';
import { eventually } from '../support/eventually.js';
import { EndlessBody } from '../support/endless-body.js';

const MiB = 1024 * 1024;

interface RawAnswer {
  readonly status: number;
  readonly headers: string;
  readonly body: string;
}

/**
 * A raw socket that writes the whole request (head and body) at once, at full speed, as a
 * keep-alive client would, and reads the answer. Any socket error before the answer is whole
 * (EPIPE, ECONNRESET) fails: that is the client losing the server's 413.
 */
function rawUpload(
  url: string,
  path: string,
  headers: Record<string, string>,
  size: number,
  framing: 'length' | 'chunked' = 'length',
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (outcome: RawAnswer | Error) => {
      if (done) return;
      done = true;
      socket.end();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    socket.on('error', (error) => finish(error));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = received.subarray(0, headEnd).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
      const body = received.subarray(headEnd + 4);
      if (body.length < length) return;
      finish({ status: Number(head.split(' ')[1]), headers: head, body: body.subarray(0, length).toString('utf8') });
    });
    socket.on('close', () => finish(new Error(`closed before a whole answer (${received.length} bytes read)`)));
    const framingHeader = framing === 'length' ? `Content-Length: ${size}` : 'Transfer-Encoding: chunked';
    const lines = [
      `POST ${path} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      'Connection: keep-alive',
      framingHeader,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (framing === 'length') {
      socket.write(Buffer.alloc(size, 0x20));
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    for (let sent = 0; sent < size; sent += chunk.length)
      socket.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
    socket.write('0\r\n\r\n');
  });
}

/**
 * A node:http request through `agent`, its body written in 64 KiB chunks as fast as the socket
 * drains, with a Content-Length or chunked. An error after the whole answer was read is the
 * server closing under our last writes (expected); before it, the answer was lost.
 */
function agentRequest(
  agent: Agent,
  url: string,
  init: { method: string; headers?: Record<string, string>; size?: number; body?: string; chunked?: boolean },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const size = init.size ?? 0;
    const headers = { ...init.headers, ...(init.size !== undefined && !init.chunked ? { 'content-length': String(size) } : {}) };
    const req = httpRequest(url, { method: init.method, agent, headers }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within 5 s: ${init.method} ${url}`));
    }, 5_000);
    req.once('close', () => clearTimeout(timer));
    req.on('error', (error) => (answered ? undefined : reject(error)));
    if (init.size === undefined) return void req.end(init.body);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

async function listen(listener: RequestListener): Promise<RunningServer> {
  return serve(listener);
}

describe('Bodies over a limit: a 413 the client reads, on every mount', function () {
  this.timeout(60_000);
  let porter: Porter;
  const servers: Record<string, RunningServer> = {};

  before(async () => {
    porter = await createPorter(
      {
        development: true,
        logger: 'silent',
        webhooks: { sources: { demo: { kind: 'standard', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } } },
      },
      {
        PORTER_DATABASE_URL: 'sqlite::memory:',
        PORTER_SECRET: 'a-development-secret-for-the-tests-0123456789',
        PORTER_SANDBOX_ROOT: mkdtempSync(join(tmpdir(), 'porter-sandboxes-')),
      },
    );
    servers.listener = await listen(porter.listener);
    servers.handle = await listen((req, res) => porter.handle(req, res, () => res.writeHead(404).end()));
    const koa = new Koa();
    koa.use(porter.koa as Koa.Middleware);
    servers.koa = await listen(koa.callback());
  });

  after(async () => {
    for (const server of Object.values(servers)) await server.close();
    await porter.close();
  });

  const json = { 'content-type': 'application/json', 'x-demo-user': 'ada' };
  const archive = { 'content-type': 'application/vnd.porter.app', 'x-demo-user': 'ada' };

  for (const mount of ['listener', 'handle', 'koa'] as const) {
    it(`${mount}: a 5 MiB JSON body and a 9 MiB import, written at full speed, read their 413 on 10 of 10 tries`, async () => {
      const url = servers[mount]!.url;
      for (const framing of ['length', 'chunked'] as const) {
        for (let i = 0; i < 10; i += 1) {
          const tooBigJson = await rawUpload(url, `${porter.mount}/threads`, json, 5 * MiB, framing);
          expect(tooBigJson.status, `JSON try ${i}, ${framing}`).to.equal(413);
          expect(JSON.parse(tooBigJson.body).error.code).to.equal('payload-too-large');
          expect(tooBigJson.headers).to.match(/\r\nconnection: close/i);
          const tooBigImport = await rawUpload(url, `${porter.mount}/apps/import`, archive, 9 * MiB, framing);
          expect(tooBigImport.status, `import try ${i}, ${framing}`).to.equal(413);
          expect(JSON.parse(tooBigImport.body).error.code).to.equal('payload-too-large');
          const tooBigWebhook = await rawUpload(
            url,
            `${porter.mount}/webhooks/demo`,
            { 'content-type': 'application/json' },
            2 * MiB,
            framing,
          );
          expect(tooBigWebhook.status, `webhook try ${i}, ${framing}`).to.equal(413);
        }
      }
    });

    it(`${mount}: after a 413 on a keep-alive agent (declared or chunked, JSON, import, webhook) the next request is answered`, async () => {
      const url = servers[mount]!.url;
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const uploads = [
        { path: '/threads', headers: json, size: 5 * MiB },
        { path: '/apps/import', headers: archive, size: 9 * MiB },
        { path: '/webhooks/demo', headers: { 'content-type': 'application/json' }, size: 2 * MiB },
      ];
      try {
        for (const upload of uploads) {
          for (const chunked of [false, true]) {
            for (let i = 0; i < 3; i += 1) {
              const refused = await agentRequest(agent, `${url}${porter.mount}${upload.path}`, {
                method: 'POST',
                headers: upload.headers,
                size: upload.size,
                chunked,
              });
              expect(refused.status, `${upload.path} chunked=${chunked}`).to.equal(413);
              const next = await agentRequest(agent, `${url}${porter.mount}/threads`, { method: 'POST', headers: json, body: '{}' });
              expect(next.status, `after ${upload.path} chunked=${chunked}`).to.equal(201);
            }
          }
        }
      } finally {
        agent.destroy();
      }
    });
  }

  it('fetch (undici) with a big body reads the 413, and the next fetch is answered', async () => {
    const url = servers.listener!.url;
    for (let i = 0; i < 5; i += 1) {
      const refused = await fetch(`${url}${porter.mount}/threads`, {
        method: 'POST',
        headers: json,
        body: new Uint8Array(5 * MiB).fill(0x20),
      });
      expect(refused.status).to.equal(413);
      expect((await refused.json()).error.code).to.equal('payload-too-large');
      const imported = await fetch(`${url}${porter.mount}/apps/import`, {
        method: 'POST',
        headers: archive,
        body: new Uint8Array(9 * MiB),
      });
      expect(imported.status).to.equal(413);
      await imported.body?.cancel();
      expect((await fetch(`${url}${porter.mount}/threads`, { method: 'POST', headers: json, body: '{}' })).status).to.equal(201);
    }
  });

  it('porter.fetch answers a Response with the 413 and cancels the body stream', async () => {
    const endless = new EndlessBody(64 * 1024, 0x20);
    const response = await porter.fetch(
      new Request(`http://porter.test${porter.mount}/threads`, {
        method: 'POST',
        headers: json,
        body: endless.stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).to.equal(413);
    expect(response.headers.get('connection')).to.equal('close');
    expect((await response.json()).error.code).to.equal('payload-too-large');
    expect(await eventually(() => endless.cancelled), 'the body stream was cancelled').to.equal(true);
    expect(endless.pulled).to.be.lessThan(6 * MiB);
    const next = await porter.fetch(
      new Request(`http://porter.test${porter.mount}/threads`, { method: 'POST', headers: json, body: '{}' }),
    );
    expect(next.status).to.equal(201);
  });
});
