import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { PassThrough } from 'node:stream';
import getRawBody from 'raw-body';
import { fetchBridge, type FetchBridge } from '../../../adapters/http/fetch-bridge.js';
import { createKoaWire } from '../../../adapters/http/koa-wire.js';
import { envelope } from '../../../adapters/http/error-envelope.js';
import type { WireRoutes } from '../../../adapters/http/wire-routes.js';
import { route, type WireRoute } from '../../../adapters/http/wire-route.js';
import { principalOf, type WireRouteContext } from '../../../adapters/http/wire-state.js';
import { rememberHostContext } from '../../../adapters/http/wire-request.js';
import type { WireRequest } from '../../../ports/wire-request.js';
import { RecordingLogger, SequentialIds } from '../../support/fakes.js';
import { EndlessBody } from '../../support/endless-body.js';
import { eventually } from '../../support/eventually.js';

const ORIGIN = 'http://host.test';
const MOUNT = '/api/porter';
const SECRET = 'a-test-secret-that-is-long-enough-0123456789';

/** What the probe routes saw of the server side of each exchange. */
interface Seen {
  resolved: WireRequest[];
  closes: Array<{ path: string; finished: boolean }>;
  gate: PassThrough | null;
}

/** A route with no declared input: the handler reads what it needs. */
const probe = (method: 'get' | 'post', path: string, handle: (ctx: WireRouteContext) => unknown): WireRoute =>
  route({ id: `${method}${path}`, method, path, summary: 'probe', responses: {}, handle });

function probeRoutes(seen: Seen): WireRoutes[] {
  return [
    {
      access: 'self',
      tag: 'Probes',
      routes: [
        probe('post', '/echo', async (ctx) => {
          const bytes = await getRawBody(ctx.req);
          ctx.body = {
            sha256: createHash('sha256').update(bytes).digest('hex'),
            length: bytes.length,
            contentLength: ctx.get('content-length') || null,
            chunked: ctx.get('transfer-encoding') === 'chunked',
          };
        }),
        // Answers before reading the whole body, as the webhook intake does past its cap.
        probe('post', '/capped', async (ctx) => {
          try {
            await getRawBody(ctx.req, { limit: 1024 });
          } catch {
            ctx.set('Connection', 'close');
            ctx.status = 413;
            ctx.body = envelope('payload-too-large', 'too large');
          }
        }),
        probe('get', '/stream', (ctx) => {
          const body = new PassThrough();
          seen.gate = body;
          ctx.res.once('close', () => seen.closes.push({ path: ctx.path, finished: ctx.res.writableFinished }));
          ctx.req.socket.setNoDelay(true);
          ctx.type = 'text/event-stream';
          ctx.body = body;
          body.write('data: first\n\n');
        }),
        probe('get', '/slow-head', async (ctx) => {
          ctx.res.once('close', () => seen.closes.push({ path: ctx.path, finished: ctx.res.writableFinished }));
          await new Promise((resolve) => ctx.res.once('close', resolve));
        }),
        probe('get', '/cookies', (ctx) => {
          ctx.cookies.set('a', '1', { signed: false });
          ctx.cookies.set('b', '2', { signed: false, httpOnly: false });
          ctx.cookies.set('c', '3', { signed: false, path: '/x' });
          ctx.body = { ok: true };
        }),
        probe('get', '/empty', (ctx) => void (ctx.status = 204)),
        probe('get', '/unchanged', (ctx) => {
          ctx.status = 304;
          ctx.set('ETag', '"v1"');
        }),
      ],
    },
    {
      access: 'principal',
      tag: 'Probes',
      routes: [probe('get', '/whoami', (ctx) => void (ctx.body = { principal: principalOf(ctx), ip: ctx.ip, secure: ctx.secure }))],
    },
  ];
}

/** The bridge over a wire, served as `mountsOf` serves it; tests read its open connections. */
function bridgeOver(seen: Seen, options: { trustProxy?: boolean | { hops: number; addressHeader: string } } = {}): FetchBridge {
  const wire = createKoaWire({
    mount: MOUNT,
    cookieKeys: [SECRET],
    trustProxy: options.trustProxy ?? false,
    routes: probeRoutes(seen),
    resolve: (request) => {
      seen.resolved.push(request);
      return null;
    },
    identity: { adoptAnonymousSession: { execute: async () => 'adopted' } },
    ids: new SequentialIds(),
    logger: new RecordingLogger(),
  });
  const callback = wire.app.callback();
  return fetchBridge((req, res, host) => {
    rememberHostContext(req, host);
    void callback(req, res);
  });
}

/** A request body in chunks of awkward sizes, optionally with its length declared. */
function chunkedBody(bytes: Uint8Array, sizes: number[]): ReadableStream<Uint8Array> {
  let offset = 0;
  let turn = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const size = sizes[turn++ % sizes.length]!;
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}${MOUNT}${path}`, { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

async function until(check: () => boolean): Promise<void> {
  if (!(await eventually(check))) throw new Error('timed out');
}

describe('fetchBridge (the Web-standard mount)', () => {
  let seen: Seen;
  let bridge: FetchBridge;

  beforeEach(() => {
    seen = { resolved: [], closes: [], gate: null };
    bridge = bridgeOver(seen);
  });

  afterEach(async function () {
    // Every exchange in this file ends with its in-memory connection closed.
    if (this.currentTest?.state === 'passed') await until(() => bridge.openConnections() === 0);
  });

  describe('bodies', () => {
    const everyByte = new Uint8Array(70_000).map((_, i) => (i * 7 + (i >> 8)) % 256);
    const digest = createHash('sha256').update(everyByte).digest('hex');

    it('passes a declared-length body byte for byte', async () => {
      const response = await bridge.fetch(
        post('/echo', chunkedBody(everyByte, [1, 4093, 65_536, 17]), { 'content-length': String(everyByte.length) }),
      );
      expect(await response.json()).to.deep.equal({
        sha256: digest,
        length: everyByte.length,
        contentLength: String(everyByte.length),
        chunked: false,
      });
    });

    it('streams a body without Content-Length as chunked, byte for byte', async () => {
      const response = await bridge.fetch(post('/echo', chunkedBody(everyByte, [333, 8192])));
      expect(await response.json()).to.deep.equal({ sha256: digest, length: everyByte.length, contentLength: null, chunked: true });
    });

    it('sends a bodiless POST as Content-Length: 0', async () => {
      const response = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/echo`, { method: 'POST' }));
      expect(await response.json()).to.deep.include({ length: 0, contentLength: '0' });
    });

    it('stops reading a body the wire refused early, and carries its Connection: close', async () => {
      const endless = new EndlessBody(16 * 1024);
      const response = await bridge.fetch(post('/capped', endless.stream));
      expect(response.status).to.equal(413);
      expect(response.headers.get('connection')).to.equal('close');
      expect((await response.json()).error.code).to.equal('payload-too-large');
      await until(() => endless.cancelled);
      expect(endless.pulled).to.be.lessThan(512 * 1024);
    });
  });

  describe('answers', () => {
    it('keeps several Set-Cookie headers apart', async () => {
      const response = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/cookies`));
      const cookies = response.headers.getSetCookie();
      expect(cookies.map((c) => c.split(';')[0])).to.deep.equal(['a=1', 'b=2', 'c=3']);
      expect(cookies[2]).to.contain('path=/x');
      expect(response.headers.get('keep-alive')).to.equal(null);
      expect(response.headers.get('connection')).to.equal(null);
      await response.body!.cancel();
    });

    it('answers HEAD with the headers of GET and a null body', async () => {
      const response = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/cookies`, { method: 'HEAD' }));
      expect(response.status).to.equal(200);
      expect(response.body).to.equal(null);
      expect(response.headers.get('content-type')).to.contain('application/json');
    });

    it('answers 204 and 304 with a null body', async () => {
      const empty = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/empty`));
      expect([empty.status, empty.body]).to.deep.equal([204, null]);
      const unchanged = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/unchanged`));
      expect([unchanged.status, unchanged.body, unchanged.headers.get('etag')]).to.deep.equal([304, null, '"v1"']);
    });

    it("answers paths outside the mount with the wire's not-found envelope", async () => {
      const response = await bridge.fetch(new Request(`${ORIGIN}/elsewhere`));
      expect(response.status).to.equal(404);
      expect(await response.json()).to.deep.equal({ error: { code: 'not-found', message: 'No such route' } });
    });
  });

  describe('streaming', () => {
    it('resolves at the head and hands each chunk over as the wire writes it', async () => {
      const response = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/stream`));
      expect(response.headers.get('content-type')).to.contain('text/event-stream');
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      expect(decoder.decode((await reader.read()).value)).to.equal('data: first\n\n');
      // The second chunk does not exist yet: it is written only now.
      seen.gate!.write('data: second\n\n');
      expect(decoder.decode((await reader.read()).value)).to.equal('data: second\n\n');
      seen.gate!.end();
      expect((await reader.read()).done).to.equal(true);
      await until(() => seen.closes.length === 1);
      expect(seen.closes[0]!.finished).to.equal(true);
    });

    it('closes the connection when the caller cancels the body: the wire sees the client go', async () => {
      const response = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/stream`));
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
      await until(() => seen.closes.length === 1);
      expect(seen.closes[0]).to.deep.equal({ path: `${MOUNT}/stream`, finished: false });
      expect(seen.gate!.destroyed || seen.gate!.writableEnded || seen.gate!.write('late\n')).to.be.ok;
    });

    it('closes the connection when the signal aborts mid-body, errors the body, and leaves no listener behind', async () => {
      const controller = new AbortController();
      const request = new Request(`${ORIGIN}${MOUNT}/stream`, { signal: controller.signal });
      const response = await bridge.fetch(request);
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      const failure = await reader.read().catch((error: unknown) => error);
      expect((failure as Error).name).to.equal('AbortError');
      await until(() => seen.closes.length === 1);
      expect(seen.closes[0]!.finished).to.equal(false);
      expect(getEventListeners(request.signal, 'abort')).to.have.length(0);
    });

    it('rejects with the abort reason when the signal aborts before the head, and the wire sees the client go', async () => {
      const controller = new AbortController();
      const request = new Request(`${ORIGIN}${MOUNT}/slow-head`, { signal: controller.signal });
      const pending = bridge.fetch(request);
      await until(() => bridge.openConnections() === 1);
      controller.abort();
      const failure = await pending.catch((error: unknown) => error);
      expect((failure as Error).name).to.equal('AbortError');
      await until(() => seen.closes.length === 1);
      expect(getEventListeners(request.signal, 'abort')).to.have.length(0);
    });

    it('rejects an already-aborted request without opening a connection', async () => {
      const failure = await bridge
        .fetch(new Request(`${ORIGIN}${MOUNT}/whoami`, { signal: AbortSignal.abort() }))
        .catch((error: unknown) => error);
      expect((failure as Error).name).to.equal('AbortError');
      expect(seen.resolved).to.have.length(0);
    });

    it('frees every connection and signal listener once answers are read, without the caller doing anything else', async () => {
      const requests = Array.from({ length: 20 }, () => new Request(`${ORIGIN}${MOUNT}/cookies`, { signal: new AbortController().signal }));
      await Promise.all(requests.map(async (request) => (await bridge.fetch(request)).text()));
      await until(() => bridge.openConnections() === 0);
      expect(requests.map((request) => getEventListeners(request.signal, 'abort').length)).to.deep.equal(requests.map(() => 0));
    });
  });

  describe('who is calling', () => {
    it('takes secure from the URL scheme: https gets the __Host- cookie, as over TLS', async () => {
      const secure = await bridge.fetch(new Request(`https://host.test${MOUNT}/whoami`));
      expect((await secure.json()).secure).to.equal(true);
      expect(secure.headers.getSetCookie().every((c) => c.startsWith('__Host-porter_anon') && /;\s*secure/i.test(c))).to.equal(true);
      const plain = await bridge.fetch(new Request(`http://host.test${MOUNT}/whoami`));
      expect((await plain.json()).secure).to.equal(false);
      expect(plain.headers.getSetCookie()[0]).to.match(/^porter_anon=/);
    });

    it('reuses the anonymous session its cookie names', async () => {
      const first = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/whoami`));
      const subject = (await first.json()).principal.subject as string;
      const cookie = first.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const second = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/whoami`, { headers: { cookie } }));
      expect((await second.json()).principal.subject).to.equal(subject);
      expect(second.headers.getSetCookie()).to.have.length(0);
    });

    it('hands the resolver init.host, or else the Request itself, with the address from init.ip', async () => {
      const hostContext = { framework: 'hono' };
      const given = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/whoami`), { host: hostContext, ip: '203.0.113.9' });
      expect((await given.json()).ip).to.equal('203.0.113.9');
      expect(seen.resolved[0]!.host).to.equal(hostContext);
      expect(seen.resolved[0]!.ip).to.equal('203.0.113.9');
      const request = new Request(`${ORIGIN}${MOUNT}/whoami`, { headers: { 'x-forwarded-for': '198.51.100.1' } });
      const bare = await bridge.fetch(request);
      expect((await bare.json()).ip).to.equal('');
      expect(seen.resolved[1]!.host).to.equal(request);
      expect(seen.resolved[1]!.headers.host).to.equal('host.test');
    });

    it('reads X-Forwarded-* only when trustProxy is on', async () => {
      const proxied = bridgeOver(seen, { trustProxy: true });
      const headers = { 'x-forwarded-for': '198.51.100.1', 'x-forwarded-proto': 'https' };
      const trusted = await (await proxied.fetch(new Request(`${ORIGIN}${MOUNT}/whoami`, { headers }), { ip: '10.0.0.2' })).json();
      expect([trusted.ip, trusted.secure]).to.deep.equal(['198.51.100.1', true]);
      const ignored = await (await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/whoami`, { headers }), { ip: '10.0.0.2' })).json();
      expect([ignored.ip, ignored.secure]).to.deep.equal(['10.0.0.2', false]);
    });

    it('takes the client address the trusted proxies added, never the entries a client wrote before them', async () => {
      const whoami = async (bridge: FetchBridge, headers: Record<string, string>) =>
        (await (await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/whoami`, { headers }), { ip: '10.0.0.2' })).json()) as {
          ip: string;
          principal: { address?: string };
        };
      // One proxy: the client sent "X-Forwarded-For: 1.1.1.1", the proxy appended what it saw.
      const spoofed = { 'x-forwarded-for': '1.1.1.1, 198.51.100.1' };
      const one = await whoami(bridgeOver(seen, { trustProxy: true }), spoofed);
      expect([one.ip, one.principal.address]).to.deep.equal(['198.51.100.1', '198.51.100.1']);
      const two = await whoami(bridgeOver(seen, { trustProxy: { hops: 2, addressHeader: 'x-forwarded-for' } }), {
        'x-forwarded-for': '1.1.1.1, 198.51.100.1, 10.0.0.9',
      });
      expect(two.ip).to.equal('198.51.100.1');
      const realIp = await whoami(bridgeOver(seen, { trustProxy: { hops: 1, addressHeader: 'x-real-ip' } }), {
        'x-real-ip': '2001:db8:1:2::77',
        'x-forwarded-for': '1.1.1.1',
      });
      expect([realIp.ip, realIp.principal.address]).to.deep.equal(['2001:db8:1:2::77', '2001:db8:1:2::/64']);
      // Off: the socket's address, whatever the headers say.
      expect((await whoami(bridgeOver(seen), spoofed)).principal.address).to.equal('10.0.0.2');
    });
  });

  describe('bad input', () => {
    const refusedWith = async (response: Response, message: RegExp) => {
      expect(response.status).to.equal(400);
      const body = await response.json();
      expect(body.error.code).to.equal('validation');
      expect(body.error.message).to.match(message);
    };

    it("refuses headers past Node's size limit with the envelope", async () => {
      await refusedWith(
        await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/whoami`, { headers: { 'x-huge': 'x'.repeat(64 * 1024) } })),
        /too large/,
      );
      expect(seen.resolved).to.have.length(0);
    });

    it("refuses a header value Node's HTTP cannot write", async () => {
      await refusedWith(
        await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/whoami`, { headers: { 'x-odd': 'a\u0001b' } })),
        /not valid HTTP/,
      );
    });

    it('refuses a method the HTTP parser does not know', async () => {
      await refusedWith(await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/whoami`, { method: 'BREW' })), /not valid HTTP/);
    });

    it('refuses a body that disagrees with its Content-Length, either way', async () => {
      await refusedWith(await bridge.fetch(post('/echo', chunkedBody(new Uint8Array(10), [10]), { 'content-length': '20' })), /shorter/);
      let cancelled = false;
      const longer = new ReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(new Uint8Array(10)),
        cancel: () => void (cancelled = true),
      });
      await refusedWith(await bridge.fetch(post('/echo', longer, { 'content-length': '20' })), /longer/);
      expect(cancelled, 'the rest of the body is not read').to.equal(true);
    });

    it('refuses a body that fails mid-upload, or is not bytes', async () => {
      let sent = 0;
      const failing = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 3) controller.enqueue(new Uint8Array(1000));
          else controller.error(new Error('the client went away'));
        },
      });
      await refusedWith(await bridge.fetch(post('/echo', failing)), /could not be read/);
      const strings = new ReadableStream({ start: (controller) => controller.enqueue('text') }) as unknown as ReadableStream<Uint8Array>;
      await refusedWith(await bridge.fetch(post('/echo', strings)), /not a byte stream/);
    });

    it('tells the host when its body parser already read the body', async () => {
      const request = post('/echo', '{"a":1}', { 'content-type': 'application/json' });
      await request.text();
      const failure = await bridge.fetch(request).catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(TypeError);
      expect((failure as Error).message).to.contain('before any body parser');
    });

    it('answers malformed percent-encoding like the other mounts do', async () => {
      const response = await bridge.fetch(new Request(`${ORIGIN}${MOUNT}/whoami%E0%A4%A`));
      expect(response.status).to.equal(404);
      expect((await response.json()).error.code).to.equal('not-found');
    });
  });
});
