import { createServer, request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { expect } from 'chai';
import { devHost } from '../support/dev-host-fixture.js';
import { accessTokenFor, initializeRequest } from '../support/door-client.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import { createPorter } from '../../composition/create-porter.js';
import type { PorterOptions } from '../../composition/config/config-schema.js';

const INITIALIZE = initializeRequest();

/**
 * The transport as the SDK's Web-standard transport answers it behind Koa: each answer's status,
 * headers and body as they travel, the event stream, and the body limit.
 */
describe("The door's transport over raw HTTP", function () {
  this.timeout(30_000);
  let host: DevHost;
  let door: URL;
  let headers: Record<string, string>;

  before(async () => {
    host = await devHost();
    door = new URL(`${host.url}/api/porter/mcp`);
    headers = {
      authorization: `Bearer ${await accessTokenFor(door, 'ada')}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
  });

  after(async () => {
    await host.close();
  });

  async function openSession(): Promise<string> {
    const opened = await fetch(door, { method: 'POST', headers, body: JSON.stringify(INITIALIZE) });
    expect(opened.status).to.equal(200);
    return opened.headers.get('mcp-session-id')!;
  }

  it('answers requests in JSON with the session header, and a notification with an empty 202', async () => {
    const session = await openSession();
    const accepted = await fetch(door, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(accepted.status).to.equal(202);
    expect(accepted.headers.get('content-type')).to.equal(null);
    expect(await accepted.text()).to.equal('');

    const batch = [
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'notes_list', arguments: {} } },
    ];
    const answered = await fetch(door, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: JSON.stringify(batch) });
    expect(answered.status).to.equal(200);
    expect(answered.headers.get('content-type')).to.equal('application/json');
    expect(answered.headers.get('mcp-session-id')).to.equal(session);
    expect(answered.headers.get('access-control-expose-headers')).to.contain('Mcp-Session-Id');
    expect(await answered.json()).to.deep.equal([
      { jsonrpc: '2.0', id: 2, result: {} },
      { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '{"notes":[]}' }], structuredContent: { notes: [] } } },
    ]);
  });

  it('answers every request when a client reuses an id still in flight: the duplicates are refused, the session goes on', async () => {
    const session = await openSession();
    const sessionHeaders = { ...headers, 'mcp-session-id': session };
    const call = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'notes_list', arguments: {} } });
    // A hang would fail here rather than at mocha's timeout.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(door, { method: 'POST', headers: sessionHeaders, body: call, signal: AbortSignal.timeout(10_000) }),
      ),
    );
    const bodies = await Promise.all(
      answers.map(async (answer) => ({ status: answer.status, body: (await answer.json()) as { id: unknown; error?: { code: number } } })),
    );
    expect(bodies.filter((b) => b.status === 200 && b.body.id === 3).length).to.be.at.least(1);
    for (const refused of bodies.filter((b) => b.status !== 200))
      expect(refused).to.deep.include({
        status: 400,
        body: {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'Invalid Request: a request id is already in flight on this session' },
        },
      });

    const twice = [
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', id: 7, method: 'ping' },
    ];
    expect(
      (await fetch(door, { method: 'POST', headers: sessionHeaders, body: JSON.stringify(twice), signal: AbortSignal.timeout(10_000) }))
        .status,
    ).to.equal(400);
    const again = await fetch(door, { method: 'POST', headers: sessionHeaders, body: call, signal: AbortSignal.timeout(10_000) });
    expect(await again.json()).to.deep.include({ id: 3 });
  });

  it('opens the event stream at once, and ends it when the session is deleted', async () => {
    const session = await openSession();
    const stream = await fetch(door, { headers: { ...headers, accept: 'text/event-stream', 'mcp-session-id': session } });
    expect(stream.status).to.equal(200);
    expect(stream.headers.get('content-type')).to.equal('text/event-stream');
    expect(stream.headers.get('cache-control')).to.equal('no-cache, no-transform');
    const reader = stream.body!.getReader();
    const ended = reader.read();

    const deleted = await fetch(door, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session } });
    expect(deleted.status).to.equal(200);
    expect(await ended).to.deep.equal({ done: true, value: undefined });
    const after = await fetch(door, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }),
    });
    expect(after.status).to.equal(404);
  });

  it('lets a client that dropped its event stream open another', async () => {
    const session = await openSession();
    const get = () => fetch(door, { headers: { ...headers, accept: 'text/event-stream', 'mcp-session-id': session } });
    const first = await get();
    expect(first.status).to.equal(200);
    await first.body!.cancel();
    // The server learns of the drop when the connection closes; until then a second stream conflicts.
    let again = await get();
    for (let tries = 0; again.status === 409 && tries < 50; tries++) {
      await again.body?.cancel();
      again = await get();
    }
    expect(again.status).to.equal(200);
    await again.body!.cancel();
  });

  it('refuses a body past 4 MiB with 413 in JSON-RPC shape, declared or streamed, and the session keeps working', async () => {
    const session = await openSession();
    const big = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping', params: { pad: 'x'.repeat(4 * 1024 * 1024) } });
    const declared = await fetch(door, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: big });
    expect(declared.status).to.equal(413);
    expect(await declared.json()).to.deep.equal({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Payload Too Large: Request body must not exceed 4194304 bytes' },
      id: null,
    });

    // Chunked, without a Content-Length: the read stops at the limit.
    const streamed = await chunkedPost(door, { ...headers, 'mcp-session-id': session }, big);
    expect(streamed.status).to.equal(413);
    expect(JSON.parse(streamed.body)).to.deep.include({ jsonrpc: '2.0', id: null });

    const ping = await fetch(door, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }),
    });
    expect(await ping.json()).to.deep.equal({ jsonrpc: '2.0', id: 6, result: {} });
  });

  it('reads out a refusal answered while the body is still arriving, then closes that connection', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping', params: { pad: 'x'.repeat(2 * 1024 * 1024) } });
    const { authorization: _bearer, ...anonymous } = headers;
    for (let attempt = 0; attempt < 5; attempt++) {
      const refused = await chunkedPost(door, anonymous, big);
      expect(refused.status).to.equal(401);
      expect(JSON.parse(refused.body)).to.deep.include({ error: 'invalid_token' });
      expect(refused.connection).to.equal('close');
    }
  });

  it('refuses a Host that names no host with 400 in JSON-RPC shape, on every method, never a 500', async () => {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const outgoing = httpRequest(door, { method, headers: { ...headers, host: 'exa mple' } }, (incoming) => {
          let text = '';
          incoming.setEncoding('utf8');
          incoming.on('data', (chunk: string) => (text += chunk));
          incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text }));
        });
        outgoing.on('error', reject);
        outgoing.end(method === 'POST' ? JSON.stringify(INITIALIZE) : undefined);
      });
      expect(refused.status, method).to.equal(400);
      expect(JSON.parse(refused.body), method).to.deep.equal({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Bad Request: The Host header is not a valid host' },
        id: null,
      });
    }
  });

  /** One request over Node's HTTP client, so the Host header can say what a browser would send. */
  function rawDoor(
    method: string,
    sent: Record<string, string>,
    body?: string,
    url: URL = door,
  ): Promise<{ status: number; body: string }> {
    const outgoingHeaders = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== ''));
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(url, { method, headers: outgoingHeaders }, (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text }));
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  describe('Origin (the transport specification: 403 for an Origin present and not allowed)', () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'ping' });

    it('refuses a foreign Origin on every method with 403 in JSON-RPC shape, even with a valid token and session', async () => {
      const session = await openSession();
      const evil = { ...headers, origin: 'https://evil.example', 'mcp-session-id': session };
      const answers = [
        await fetch(door, { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body: JSON.stringify(INITIALIZE) }),
        await fetch(door, { method: 'POST', headers: evil, body: ping }),
        await fetch(door, { headers: { ...evil, accept: 'text/event-stream' } }),
        await fetch(door, { method: 'DELETE', headers: evil }),
        await fetch(door, { method: 'POST', headers: { ...headers, origin: 'null', 'mcp-session-id': session }, body: ping }),
      ];
      for (const answer of answers) {
        expect(answer.status).to.equal(403);
        expect(await answer.json()).to.deep.equal({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: 'Forbidden: this Origin may not use this MCP server' },
        });
      }
      const still = await fetch(door, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: ping });
      expect(still.status, 'the refused DELETE ended nothing').to.equal(200);
    });

    it("serves no Origin, the door's own origin and loopback origins on any port", async () => {
      const session = await openSession();
      for (const origin of [
        null,
        door.origin,
        'http://localhost:6274',
        'http://127.0.0.1:3000',
        'http://[::1]:8080',
        'https://localhost',
      ]) {
        const answer = await fetch(door, {
          method: 'POST',
          headers: { ...headers, 'mcp-session-id': session, ...(origin ? { origin } : {}) },
          body: ping,
        });
        expect(answer.status, String(origin)).to.equal(200);
      }
    });

    it('refuses a DNS-rebinding page (Host and Origin both its own name, the request on loopback) with 403 on every method', async () => {
      const session = await openSession();
      const evil = `evil.example:${door.port}`;
      for (const bearer of [headers.authorization!, null]) {
        for (const [method, extra, body] of [
          ['POST', {}, JSON.stringify(INITIALIZE)],
          ['POST', { 'mcp-session-id': session }, ping],
          ['GET', { 'mcp-session-id': session, accept: 'text/event-stream' }, undefined],
          ['DELETE', { 'mcp-session-id': session }, undefined],
        ] as const) {
          const { authorization: _bearer, ...rest } = headers;
          const answer = await rawDoor(
            method,
            { ...rest, ...(bearer ? { authorization: bearer } : {}), ...extra, host: evil, origin: `http://${evil}` },
            body,
          );
          expect(answer.status, `${method} ${bearer ? 'with' : 'without'} a bearer`).to.equal(403);
          expect(JSON.parse(answer.body)).to.deep.equal({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32000, message: 'Forbidden: this Origin may not use this MCP server' },
          });
        }
      }
      const still = await fetch(door, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: ping });
      expect(still.status, 'the refused DELETE ended nothing').to.equal(200);
    });

    it("takes the configured base URL, never the Host header, as the door's own origin", async () => {
      const other = await devHost({ porter: { baseUrl: 'https://porter.example.com' } });
      try {
        const otherDoor = new URL(`${other.url}/api/porter/mcp`);
        const answerFor = async (origin: string, host?: string) =>
          (
            await rawDoor(
              'POST',
              { ...headers, authorization: '', origin, ...(host ? { host } : {}) },
              JSON.stringify(INITIALIZE),
              otherDoor,
            )
          ).status;
        // Past the Origin check the missing bearer answers 401: the origin itself was allowed.
        expect(await answerFor('https://porter.example.com')).to.equal(401);
        expect(await answerFor('http://localhost:6274'), 'loopback, on a loopback connection').to.equal(401);
        expect(await answerFor('https://evil.example', 'evil.example')).to.equal(403);
        expect(await answerFor(`http://evil.example:${otherDoor.port}`, `evil.example:${otherDoor.port}`)).to.equal(403);
      } finally {
        await other.close();
      }
    });

    describe('loopback origins serve only requests that came to loopback', () => {
      const doorOptions: PorterOptions = {
        development: true,
        logger: 'silent',
        databaseUrl: 'memory:',
        mcp: true,
        oauth: { principal: (subject) => ({ subject, kind: 'user' }) },
      };
      const initialize = (origin: string) => ({
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(INITIALIZE),
      });

      it('through porter.fetch, which sees no connection: a loopback Origin passes only when listed or the base URL', async () => {
        for (const [options, origin, status] of [
          [{}, 'http://localhost:6274', 403],
          [{}, 'http://localhost:3000', 403],
          [{ door: { allowedOrigins: ['http://localhost:6274'] } }, 'http://localhost:6274', 401],
          [{ baseUrl: 'http://localhost:3000' }, 'http://localhost:3000', 401],
        ] as const) {
          const porter = await createPorter({ ...doorOptions, ...options }, {});
          try {
            // Past the Origin check the missing bearer answers 401: the origin itself was allowed.
            const answer = await porter.fetch(new Request('http://localhost:3000/api/porter/mcp', initialize(origin)));
            expect(answer.status, `${JSON.stringify(options)} / ${origin}`).to.equal(status);
          } finally {
            await porter.close();
          }
        }
      });

      it('on a server listening on a network interface: a loopback Origin is refused there', async function () {
        const address = Object.values(networkInterfaces())
          .flat()
          .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
        if (!address) return this.skip();
        const porter = await createPorter(doorOptions, {});
        const server = createServer(porter.listener);
        await new Promise<void>((resolve) => server.listen(0, address, resolve));
        try {
          const { port } = server.address() as { port: number };
          const url = `http://${address}:${port}/api/porter/mcp`;
          expect((await fetch(url, initialize('http://localhost:6274'))).status).to.equal(403);
          expect((await fetch(url, initialize(`http://${address}:${port}`))).status, 'nor the Host it names').to.equal(403);
          const { origin: _origin, ...noOrigin } = initialize('').headers;
          expect((await fetch(url, { ...initialize(''), headers: noOrigin })).status, 'no Origin: not a browser').to.equal(401);
        } finally {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
          await porter.close();
        }
      });
    });

    it('serves the origins door.allowedOrigins lists, and any with "*"', async () => {
      for (const [allowedOrigins, origin, status] of [
        [['https://app.example.com'], 'https://app.example.com', 200],
        [['https://app.example.com'], 'https://evil.example', 403],
        ['*', 'https://evil.example', 200],
      ] as const) {
        const other = await devHost({ porter: { door: { allowedOrigins } } });
        try {
          const otherDoor = new URL(`${other.url}/api/porter/mcp`);
          const answer = await fetch(otherDoor, {
            method: 'POST',
            headers: { ...headers, authorization: `Bearer ${await accessTokenFor(otherDoor, 'ada')}`, origin },
            body: JSON.stringify(INITIALIZE),
          });
          expect(answer.status, `${String(allowedOrigins)} / ${origin}`).to.equal(status);
        } finally {
          await other.close();
        }
      }
    });
  });
});

/** A POST whose body goes out in chunks (Transfer-Encoding: chunked), without a declared length. */
function chunkedPost(
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: 'POST', headers }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text, connection: incoming.headers.connection }));
    });
    // The server may answer and stop reading before the whole body is sent.
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    for (let at = 0; at < body.length; at += 64 * 1024) outgoing.write(body.slice(at, at + 64 * 1024));
    outgoing.end();
  });
}
