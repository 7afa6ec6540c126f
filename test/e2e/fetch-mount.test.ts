import { expect } from 'chai';
import { strToU8, zipSync } from 'fflate';
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { serve as serveHono, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import { demoTools } from '../../composition/dev-host/demo-tools.js';
import type { WireRequest } from '../../ports/wire-request.js';
import { tinyDocument } from '../support/apps-documents.js';
import { until } from '../support/eventually.js';
import { connectSdk } from '../support/door-client.js';
import { CookieJar } from '../support/http-server.js';
import { RecordingLanguageModel, lastUserText } from '../support/recording-model.js';
import { readTurn, textOf, WireClient, readUntil } from '../support/turn-client.js';
import { numberedWords } from '../support/numbered-words.js';
import { EndlessBody } from '../support/endless-body.js';

const DEMO_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const LONG = numberedWords('word', 200);
const ORIGIN = 'http://porter.test';

type HostVariables = { Variables: { user?: string } };

/**
 * Who is calling, read the way a host would: from Hono's context (its session middleware ran
 * first), or, through `porter.fetch` alone, from the Request itself.
 */
function hostPrincipal(seen: WireRequest[]) {
  return (request: WireRequest) => {
    seen.push(request);
    const host = request.host;
    const user = host instanceof Request ? host.headers.get('x-demo-user') : (host as Context<HostVariables> | undefined)?.get('user');
    return user ? { subject: user, kind: 'user', name: user } : null;
  };
}

/** A Hono app on @hono/node-server with Porter mounted through `porter.fetch`, discovery documents included. */
async function honoHost(porter: Porter): Promise<{ url: string; server: ServerType }> {
  const app = new Hono<HostVariables>();
  app.use('*', async (c, next) => {
    const user = c.req.header('x-demo-user') ?? getCookie(c, 'porter_demo_user');
    if (user) c.set('user', user);
    await next();
  });
  app.all('/api/porter/*', (c) => porter.fetch(c.req.raw, { host: c, ip: getConnInfo(c).remote.address }));
  app.on(['GET', 'OPTIONS'], '/.well-known/*', (c) => porter.fetch(c.req.raw, { host: c }));
  app.get('/', (c) => c.text('the host'));
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serveHono({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A raw node:http exchange, for what `fetch` will not send (a GET body, an upload cut short). */
function rawExchange(
  url: string,
  options: { method: string; headers: Record<string, string>; body?: string; cutAfter?: string },
): Promise<{ status: number; body: string } | 'cut'> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method, headers: options.headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    if (options.cutAfter !== undefined) {
      request.on('error', () => resolve('cut'));
      request.write(options.cutAfter, () => setTimeout(() => request.destroy(), 20));
      return;
    }
    request.on('error', reject);
    request.end(options.body);
  });
}

describe('Porter mounted through porter.fetch (Hono on @hono/node-server, and plain Requests)', function () {
  this.timeout(30_000);
  const globals = { Request: globalThis.Request, Response: globalThis.Response };
  const seen: WireRequest[] = [];
  let porter: Porter;
  let model: RecordingLanguageModel;
  let host: { url: string; server: ServerType };
  let hono: WireClient;
  let ada: WireClient;

  before(async () => {
    model = new RecordingLanguageModel((prompt) => {
      const said = lastUserText(prompt);
      return said === 'slow' ? { text: LONG, untilAborted: true } : { text: `echo: ${said}` };
    });
    porter = await createPorter(
      {
        development: true,
        principal: hostPrincipal(seen),
        model,
        tools: demoTools(),
        mcp: true,
        oauth: developmentOAuth(),
        webhooks: { sources: { demo: { kind: 'standard', secret: DEMO_SECRET } } },
        // A turn stops as soon as its last reader leaves: what these tests check of a client going away.
        turnGraceSeconds: 0,
        logger: 'silent',
      },
      {
        PORTER_DATABASE_URL: 'sqlite::memory:',
        PORTER_SECRET: 'a-development-secret-for-the-tests-0123456789',
        PORTER_SANDBOX_ROOT: mkdtempSync(join(tmpdir(), 'porter-sandboxes-')),
      },
    );
    host = await honoHost(porter);
    hono = new WireClient(`${host.url}${porter.mount}`);
    ada = hono.as('ada');
  });

  after(async () => {
    host.server.close();
    await porter.close();
    // @hono/node-server swaps in its own Request and Response; the rest of the run gets Node's back.
    Object.defineProperty(globalThis, 'Request', { value: globals.Request });
    Object.defineProperty(globalThis, 'Response', { value: globals.Response });
  });

  /** Straight into `porter.fetch`, as a Next.js route handler, Bun or Deno would call it. */
  const direct = (path: string, init: RequestInit & { origin?: string } = {}) =>
    porter.fetch(new Request(`${init.origin ?? ORIGIN}${porter.mount}${path}`, { duplex: 'half', ...init } as RequestInit));
  const turnBody = (text: string) => JSON.stringify({ message: { role: 'user', parts: [{ type: 'text', text }] } });
  /** Headers of a delivery signed by the standardwebhooks library over `body`. */
  const signed = (body: string) => {
    const id = `msg_${Math.random().toString(36).slice(2)}`;
    const at = new Date();
    return {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(DEMO_SECRET).sign(id, at, body),
    };
  };

  describe('turns', () => {
    it("streams a turn through Hono that the AI SDK's own reader folds, resolving the principal from Hono's context", async () => {
      const thread = await ada.newThread();
      const turn = await ada.say(thread, 'hello through hono');
      expect(turn.headers.get('x-vercel-ai-ui-message-stream')).to.equal('v1');
      expect(turn.headers.get('x-porter-thread-id')).to.equal(thread);
      expect(turn.raw.trimEnd().endsWith('data: [DONE]')).to.equal(true);
      expect(textOf(turn.message)).to.equal('echo: hello through hono');
      const last = seen[seen.length - 1]!;
      expect(typeof (last.host as Context).get).to.equal('function');
      expect(last.ip).to.equal('127.0.0.1');
      expect((await hono.as('bob').json('GET', `/threads/${thread}`)).status).to.equal(404);
    });

    it('streams a turn from a plain Request, the resolver reading the Request itself', async () => {
      const created = await direct('/threads', {
        method: 'POST',
        headers: { 'x-demo-user': 'ada', 'content-type': 'application/json' },
        body: '{}',
      });
      const thread = ((await created.json()) as { id: string }).id;
      const turn = await readTurn(
        await direct(`/threads/${thread}/turn`, {
          method: 'POST',
          headers: { 'x-demo-user': 'ada', 'content-type': 'application/json' },
          body: turnBody('hello, plainly'),
        }),
      );
      expect(textOf(turn.message)).to.equal('echo: hello, plainly');
      expect(seen[seen.length - 1]!.host).to.be.instanceOf(Request);
      expect((await ada.json('GET', `/threads/${thread}`)).body.messages).to.have.length(2);
    });

    for (const [through, start] of [
      [
        'a Hono client',
        (thread: string, signal: AbortSignal) =>
          fetch(`${ada.base}/threads/${thread}/turn`, {
            method: 'POST',
            headers: { ...ada.headers, 'content-type': 'application/json' },
            body: turnBody('slow'),
            signal,
          }),
      ],
      [
        'a plain Request',
        (thread: string, signal: AbortSignal) =>
          direct(`/threads/${thread}/turn`, {
            method: 'POST',
            headers: { 'x-demo-user': 'ada', 'content-type': 'application/json' },
            body: turnBody('slow'),
            signal,
          }),
      ],
    ] as const) {
      it(`aborts the model call when ${through} goes away mid-turn, saves what was said, and frees the thread`, async () => {
        const thread = await ada.newThread();
        const client = new AbortController();
        const abortedBefore = model.aborted;
        await readUntil(await start(thread, client.signal), 'word3 ');
        client.abort();
        const saved = await until(
          async () => {
            const stored = await ada.json('GET', `/threads/${thread}`);
            return stored.body.messages[1] ? textOf(stored.body.messages[1]) : '';
          },
          (text) => text !== '',
          { what: 'the stopped answer to be saved' },
        );
        expect(model.aborted).to.equal(abortedBefore + 1);
        expect(saved.startsWith('word0 word1 word2 word3')).to.equal(true);
        expect(saved.length).to.be.lessThan(LONG.length);
        expect(textOf((await ada.say(thread, 'still here?')).message)).to.equal('echo: still here?');
      });
    }
  });

  describe('raw bodies', () => {
    const payload = '{ "order": 42,\n  "note": "café ☕" }';

    it('verifies a Standard Webhooks signature over the raw bytes, through Hono and from a plain Request', async () => {
      const throughHono = await fetch(`${hono.base}/webhooks/demo`, { method: 'POST', headers: signed(payload), body: payload });
      expect(throughHono.status).to.equal(202);
      expect((await throughHono.json()).runIds).to.deep.equal([]);
      const plain = await direct('/webhooks/demo', { method: 'POST', headers: signed(payload), body: new TextEncoder().encode(payload) });
      expect(plain.status).to.equal(202);
      // One byte of whitespace changed after signing: the signature no longer holds.
      const tampered = await fetch(`${hono.base}/webhooks/demo`, {
        method: 'POST',
        headers: signed(payload),
        body: payload.replace('\n', ' '),
      });
      expect(tampered.status).to.equal(401);
      expect((await tampered.json()).error.code).to.equal('unauthorized');
    });

    it('refuses a webhook body past 1 MiB with 413 and stops reading it', async () => {
      const endless = new EndlessBody(64 * 1024, 0x20);
      const refused = await direct('/webhooks/demo', { method: 'POST', headers: signed('{}'), body: endless.stream });
      expect(refused.status).to.equal(413);
      expect((await refused.json()).error.code).to.equal('payload-too-large');
      expect(endless.pulled).to.be.lessThan(2 * 1024 * 1024);
      const viaHono = await fetch(`${hono.base}/webhooks/demo`, {
        method: 'POST',
        headers: signed('{}'),
        body: new Uint8Array(2 * 1024 * 1024),
      });
      expect(viaHono.status).to.equal(413);
    });

    it('imports an app archive (application/vnd.porter.app) through Hono and from a plain Request, and refuses one past its cap', async () => {
      const archive = zipSync({ 'app.json': strToU8(JSON.stringify(tinyDocument())) });
      const headers = { 'x-demo-user': 'ada', 'content-type': 'application/vnd.porter.app' };
      const imported = await fetch(`${hono.base}/apps/import`, { method: 'POST', headers, body: archive });
      expect(imported.status).to.equal(201);
      expect((await imported.json()).title).to.equal('Groceries');
      const plain = await direct('/apps/import', { method: 'POST', headers, body: archive });
      expect(plain.status).to.equal(201);
      expect((await ada.json('GET', '/apps')).body.apps).to.have.length(2);
      const tooBig = await direct('/apps/import', { method: 'POST', headers, body: new Blob([new Uint8Array(9 * 1024 * 1024)]).stream() });
      expect(tooBig.status).to.equal(413);
      expect((await tooBig.json()).error.code).to.equal('payload-too-large');
    });
  });

  describe('cookies', () => {
    it("sets the anonymous session's cookies through Hono as separate Set-Cookie headers, and reuses the session", async () => {
      const jar = new CookieJar();
      const first = await hono.send('POST', '/threads', {});
      expect(first.status).to.equal(201);
      const thread = ((await first.json()) as { id: string }).id;
      expect(first.headers.getSetCookie().map((c) => c.split('=')[0])).to.deep.equal(['porter_anon', 'porter_anon.sig']);
      jar.absorb(first);
      const listed = await fetch(`${hono.base}/threads`, { headers: { cookie: jar.header() } });
      expect(((await listed.json()) as { threads: Array<{ id: string }> }).threads.map((t) => t.id)).to.deep.equal([thread]);
      expect(listed.headers.getSetCookie()).to.have.length(0);
    });

    it('issues __Host-porter_anon for an https request URL and reads it back only over https', async () => {
      const jar = new CookieJar();
      const created = await direct('/threads', {
        origin: 'https://porter.test',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const thread = ((await created.json()) as { id: string }).id;
      const cookies = created.headers.getSetCookie();
      expect(cookies.map((c) => c.split('=')[0])).to.deep.equal(['__Host-porter_anon', '__Host-porter_anon.sig']);
      expect(cookies.every((c) => /;\s*secure/i.test(c) && /;\s*path=\//i.test(c))).to.equal(true);
      jar.absorb(created);
      const again = await direct('/threads', { origin: 'https://porter.test', headers: { cookie: jar.header() } });
      expect(((await again.json()) as { threads: Array<{ id: string }> }).threads.map((t) => t.id)).to.deep.equal([thread]);
      const overHttp = await direct('/threads', { headers: { cookie: jar.header() } });
      expect(((await overHttp.json()) as { threads: unknown[] }).threads).to.deep.equal([]);
    });
  });

  describe("the wire's floor and bad input, through Hono", () => {
    it("answers paths it does not own with the host's routes, and unknown wire paths with the envelope", async () => {
      expect(await (await fetch(`${host.url}/`)).text()).to.equal('the host');
      const unknown = await fetch(`${hono.base}/nowhere`);
      expect(unknown.status).to.equal(404);
      expect(await unknown.json()).to.deep.equal({ error: { code: 'not-found', message: 'No such route' } });
      const direct404 = await porter.fetch(new Request(`${ORIGIN}/not-porters`));
      expect(direct404.status).to.equal(404);
    });

    it('serves the origin-root discovery documents routed to porter.fetch', async () => {
      const metadata = await fetch(`${host.url}/.well-known/oauth-protected-resource${porter.mount}/mcp`);
      expect(metadata.status).to.equal(200);
      expect((await metadata.json()).resource).to.equal(`${host.url}${porter.mount}/mcp`);
      const preflight = await fetch(`${host.url}/.well-known/oauth-authorization-server${porter.mount}/mcp`, { method: 'OPTIONS' });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
    });

    it("lets the MCP SDK's own client through the door: discovery at the origin root, OAuth consent, tools/call", async () => {
      const { client, provider } = await connectSdk(new URL(`${hono.base}/mcp`), 'ada');
      expect(provider.returnedIssuer, 'the issuer is the origin').to.equal(new URL(hono.base).origin);
      const listed = await client.callTool({ name: 'notes_list', arguments: {} });
      expect(listed.isError ?? false).to.equal(false);
      expect(JSON.parse((listed.content as Array<{ text: string }>)[0]!.text)).to.deep.equal({ notes: [] });
      await client.close();
    });

    it('holds the CSRF floor (415) and the org refusal (402)', async () => {
      const csrf = await fetch(`${hono.base}/threads`, {
        method: 'POST',
        headers: { cookie: 'porter_demo_user=ada', 'content-type': 'text/plain' },
        body: '{}',
      });
      expect(csrf.status).to.equal(415);
      expect((await csrf.json()).error.code).to.equal('unsupported-media-type');
      const org = await ada.json('GET', '/approvals?org=acme');
      expect(org.status).to.equal(402);
      expect(org.body.error.code).to.equal('cloud-required');
    });

    it('answers malformed percent-encoding and a GET with a body cleanly', async () => {
      const malformed = await fetch(`${hono.base}/threads/%E0%A4%A`, { headers: ada.headers });
      expect(malformed.status).to.be.oneOf([400, 404]);
      expect((await malformed.json()).error.code).to.be.oneOf(['validation', 'not-found']);
      const getWithBody = await rawExchange(`${hono.base}/approvals`, {
        method: 'GET',
        headers: { 'x-demo-user': 'ada', 'content-type': 'application/json', 'content-length': '14' },
        body: '{"org":"acme"}',
      });
      expect(getWithBody).to.not.equal('cut');
      // The host's Request carries no GET body, so nothing of it reaches the wire to act on.
      expect((getWithBody as { status: number }).status).to.equal(200);
    });

    it('survives an upload cut off mid-body, and keeps answering', async () => {
      const outcome = await rawExchange(`${hono.base}/webhooks/demo`, {
        method: 'POST',
        headers: { ...signed('{}'), 'content-length': '100000' },
        cutAfter: 'x'.repeat(1000),
      });
      expect(outcome).to.equal('cut');
      const after = await fetch(`${hono.base}/status`);
      expect(after.status).to.equal(200);
    });
  });
});
