import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Router } from '@koa/router';
import { DefaultChatTransport, uiMessageChunkSchema, type UIMessage } from 'ai';
import { safeValidateTypes } from '@ai-sdk/provider-utils';
import { porterChatTransport } from '../../composition/client.js';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { containerOf } from '../../composition/porter-container.js';
import { PORTER_VERSION } from '../../composition/version.js';
import { get, getAll, TOKENS } from '../../composition/tokens.js';
import { WIRE_TOKENS } from '../../composition/modules/wire-tokens.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { sharedDevHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { serve, type RunningServer } from '../support/http-server.js';
import { ManualClock } from '../support/manual-clock.js';
import { OpenApiCheck } from '../support/openapi-check.js';
import { sseEvents } from '../support/openapi-property-run.js';
import { sampleMatching } from '../support/regex-samples.js';
import { SchemaSamples } from '../support/schema-samples.js';
import { SeededRandom } from '../support/seeded-random.js';
import { toolPart } from '../support/turn-client.js';

type Json = Record<string, any>;

const MOUNT = '/api/porter';

/** Every (document path, method) the wire's Koa routers answer; `*` for a route that takes any method. */
function registeredRoutes(porter: Porter): Array<{ path: string; methods: string[] }> {
  const wire = get(containerOf(porter), WIRE_TOKENS.KoaWire);
  const routers = wire.app.middleware
    .map((middleware) => (middleware as { router?: Router }).router)
    .filter((router) => router !== undefined);
  expect(routers, 'the wire mounts its routers').to.have.length.greaterThan(3);
  return routers.flatMap((router) =>
    router.stack
      .filter((layer) => layer.methods.length > 0)
      .map((layer) => {
        const mount = porter.mount;
        const full = String(layer.path);
        const relative = full === mount ? '/' : full.startsWith(`${mount}/`) ? full.slice(mount.length) : full;
        const path = relative.replace(/:(\w+)/g, '{$1}').replace(/\{\*(\w+)\}/g, '{$1}');
        const methods = layer.methods.map((m) => m.toLowerCase()).filter((m) => m !== 'head');
        return { path, methods: methods.length > 20 ? ['*'] : methods };
      }),
  );
}

/** Routes kept only to refuse in their own shape (`documented: false`): registered, but no operations. */
function undocumentedPaths(porter: Porter): Set<string> {
  const groups = getAll(containerOf(porter), TOKENS.WireRoutes);
  return new Set(
    groups.flatMap((group) =>
      group.routes.filter((route) => route.documented === false).map((route) => route.path.replace(/:(\w+)/g, '{$1}')),
    ),
  );
}

/** The document covers exactly the registered routes: none missing, none invented. */
function expectDocumentMatchesRouters(porter: Porter, document: Json): void {
  const undocumented = undocumentedPaths(porter);
  const registered = registeredRoutes(porter).filter(({ path }) => !undocumented.has(path));
  expect(
    registered.filter(({ methods }) => methods[0] === '*'),
    'a route answering every method only refuses: it is no operation',
  ).to.deep.equal([]);
  const missing: string[] = [];
  for (const { path, methods } of registered) {
    const item = document.paths[path] ?? {};
    for (const method of methods) if (!item[method]) missing.push(`${method.toUpperCase()} ${path}`);
  }
  expect(missing, 'registered routes the document does not declare').to.deep.equal([]);
  const invented: string[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const method of Object.keys(item).filter((key) => key !== 'servers')) {
      if (!registered.some((r) => r.path === path && r.methods.includes(method))) invented.push(`${method.toUpperCase()} ${path}`);
    }
  }
  expect(invented, 'declared operations no router answers').to.deep.equal([]);
}

/** The methods the document lists for `url` (a filled path): of every path whose template and parameter patterns take it. */
function documentedMethods(document: Json, url: string, atOrigin: boolean): string[] {
  const methods = new Set<string>();
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    if (Boolean(item.servers) !== atOrigin) continue;
    const names: string[] = [];
    const template = new RegExp(
      `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => (names.push(name), name === 'rest' ? '(.*)' : '([^/]+)'))}/?$`,
    );
    const match = template.exec(url);
    if (!match) continue;
    const operations = Object.entries<Json>(item).filter(([key]) => key !== 'servers');
    const takes = names.every((name, index) => {
      const schema = operations[0]![1].parameters.find((p: Json) => p.name === name).schema;
      return !schema.pattern || new RegExp(schema.pattern, 'u').test(decodeURIComponent(match[index + 1]!));
    });
    if (takes) for (const [method] of operations) methods.add(method);
  }
  return [...methods];
}

/** A request `fetch` will not send (`TRACE`), over plain HTTP. */
function rawRequest(base: string, method: string, path: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: { 'x-demo-user': 'ada' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function documentOf(base: string, mount = MOUNT): Promise<Json> {
  const response = await fetch(`${base}${mount}/openapi.json`);
  expect(response.status).to.equal(200);
  return (await response.json()) as Json;
}

describe('The OpenAPI document of the wire (development host)', function () {
  this.timeout(60_000);
  let host: DevHostFixture;
  let document: Json;
  let check: OpenApiCheck;
  sharedDevHost((started) => ({ host } = started));

  before(async () => {
    document = await documentOf(host.url);
    check = new OpenApiCheck(document);
  });

  it('is a valid OpenAPI 3.1 document whose references all resolve, versioned as Porter', async () => {
    const validator = new Validator();
    // The validator resolves references in place: hand it a copy.
    const result = await validator.validate(structuredClone(document));
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
    expect(() => validator.resolveRefs()).to.not.throw();
    expect(document.openapi).to.equal('3.1.0');
    expect(document.info.version).to.equal(PORTER_VERSION);
    expect(document.servers).to.deep.equal([{ url: MOUNT, description: 'The wire, where the host mounted it.' }]);
    expect(document.paths['/threads/{id}/turn'].post.parameters[0]).to.include({ name: 'id', in: 'path', required: true });
  });

  it('is served to anyone without resolving a principal, cacheable, and unchanged answers 304', async () => {
    const first = await fetch(`${host.url}${MOUNT}/openapi.json`);
    expect(first.headers.get('content-type')).to.match(/^application\/json/);
    expect(first.headers.get('cache-control')).to.equal('public, max-age=300');
    expect(first.headers.get('access-control-allow-origin')).to.equal('*');
    expect(first.headers.getSetCookie(), 'no anonymous session is minted').to.deep.equal([]);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^"/);
    // fetch adds `cache-control: no-cache` to a conditional request unless told otherwise, as a browser revalidating would not.
    const again = await fetch(`${host.url}${MOUNT}/openapi.json`, { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
    expect(again.status).to.equal(304);
    expect(await again.text()).to.equal('');
    expect(await first.json()).to.deep.equal(document);
  });

  it('declares exactly the routes the Koa routers register (a route without a declaration fails here)', () => {
    expectDocumentMatchesRouters(host.porter, document);
    expect(document.paths['/sync/impact'], 'development routes in development').to.have.property('post');
    expect(document.paths['/mcp'], 'the door, with mcp').to.have.property('post');
    expect(document.paths['/.well-known/oauth-protected-resource/api/porter/mcp'].servers).to.deep.equal([
      { url: '/', description: 'The origin root, outside the wire.' },
    ]);
  });

  it('documents the error envelope on each failure the floor and the route can answer, and the door in its own shapes', () => {
    const refs = (method: string, path: string) =>
      Object.fromEntries(
        Object.entries<Json>(document.paths[path][method].responses)
          .filter(([, r]) => r.$ref)
          .map(([status, r]) => [status, r.$ref.split('/').pop()]),
      );
    expect(refs('post', '/threads/{id}/turn')).to.deep.equal({
      400: 'Validation',
      403: 'Forbidden',
      404: 'NotFound',
      409: 'Conflict',
      413: 'PayloadTooLarge',
      415: 'UnsupportedMediaType',
      429: 'RateLimited',
      500: 'Internal',
      501: 'NotImplemented',
      503: 'Unavailable',
    });
    expect(refs('get', '/approvals')).to.include({ 402: 'CloudRequired', 400: 'Validation' });
    expect(refs('get', '/threads')).to.not.have.property('415');
    expect(refs('post', '/webhooks/{source}')).to.include({ 401: 'Unauthorized', 413: 'PayloadTooLarge' }).and.not.have.property('415');
    expect(refs('post', '/apps/import')).to.include({ 415: 'UnsupportedMediaType', 413: 'PayloadTooLarge' });
    expect(document.components.responses.Validation.content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    expect(refs('post', '/mcp'), 'the door answers in JSON-RPC and OAuth shapes').to.deep.equal({});
    expect(document.paths['/mcp/token'].post.responses['400'].content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/OAuthError',
    });
    expect(Object.keys(document.paths['/mcp/token'].post.requestBody.content)).to.deep.equal(['application/x-www-form-urlencoded']);
  });

  it('describes the turn stream, the app file and the security schemes', () => {
    const turn = document.paths['/threads/{id}/turn'].post.responses['200'];
    expect(Object.keys(turn.content)).to.deep.equal(['text/event-stream']);
    expect(Object.keys(turn.headers)).to.deep.equal(['x-vercel-ai-ui-message-stream', 'x-porter-thread-id']);
    expect(Object.keys(document.paths['/apps/import'].post.requestBody.content)).to.deep.equal(['application/vnd.porter.app']);
    expect(Object.keys(document.paths['/apps/{id}/export'].get.responses['200'].content)).to.deep.equal(['application/vnd.porter.app']);
    const schemes = document.components.securitySchemes;
    expect(schemes.anonymousSession).to.include({ type: 'apiKey', in: 'cookie', name: 'porter_anon' });
    expect(schemes.tickSecret).to.include({ type: 'http', scheme: 'bearer' });
    expect(schemes.doorOAuth.flows.authorizationCode).to.include({
      authorizationUrl: '/api/porter/mcp/authorize',
      tokenUrl: '/api/porter/mcp/token',
    });
    expect(document.paths['/threads'].get.security).to.deep.equal([{ hostSession: [] }, { anonymousSession: [] }, {}]);
    expect(document.paths['/mcp'].post.security).to.deep.equal([{ doorOAuth: [] }]);
  });

  it('describes each event of a turn stream: a UiMessageChunk of a kind Porter sends, as JSON, or [DONE]', async () => {
    const media = document.paths['/threads/{id}/turn'].post.responses['200'].content['text/event-stream'];
    expect(media.schema.properties.data.anyOf).to.deep.equal([
      { type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/UiMessageChunk' } },
      { const: '[DONE]', description: 'The stream is complete.' },
    ]);
    expect(document.paths['/threads/{id}/stream'].get.responses['200'].content['text/event-stream']).to.deep.equal(media);
    const kinds = (document.components.schemas.UiMessageChunk.oneOf as Json[]).map(
      (k) => k.properties.type.const ?? k.properties.type.pattern,
    );
    expect(kinds).to.include.members([
      'start',
      'text-delta',
      'tool-approval-request',
      'finish',
      'data-porter-approval',
      'data-porter-view',
      '^data-',
    ]);

    // Real turns: a call parked, then approved and settled, an app generated, a plain answer.
    const eve = host.client.as('eve');
    const thread = await eve.newThread();
    const events: Json[] = [];
    const turn = async (body: unknown) => {
      const response = await eve.send('POST', `/threads/${thread}/turn`, body);
      events.push(...sseEvents(await response.text()));
    };
    await turn({ message: '/call notes_add {"text":"milk"}' });
    const approvalId = JSON.parse(events.find((e) => e.data.includes('tool-approval-request'))!.data).approvalId as string;
    await eve.json('POST', `/approvals/${approvalId}/decide`, { approve: true });
    await turn({ continue: true });
    await turn({ message: '/app a packing list' });
    await turn({ message: 'hello' });
    const seen = new Set(events.map((e) => (e.data === '[DONE]' ? e.data : (JSON.parse(e.data) as Json).type)));
    expect([...seen]).to.include.members([
      'tool-approval-request',
      'data-porter-approval',
      'tool-output-available',
      'data-porter-view',
      '[DONE]',
    ]);
    for (const event of events) {
      expect(check.problems(media.schema, event), event.data).to.deep.equal([]);
      if (event.data !== '[DONE]')
        expect(check.problems({ $ref: '#/components/schemas/UiMessageChunk' }, JSON.parse(event.data)), event.data).to.deep.equal([]);
    }

    // Every kind the document describes, drawn from its schema, is a chunk a stock AI SDK reader takes.
    const samples = new SchemaSamples(document.components.schemas, new SeededRandom(6));
    for (const branch of document.components.schemas.UiMessageChunk.oneOf as Json[])
      for (let i = 0; i < 5; i += 1) {
        const chunk = samples.valid(branch);
        const read = await safeValidateTypes({ value: chunk, schema: uiMessageChunkSchema });
        expect(read.success, JSON.stringify(chunk)).to.equal(true);
      }
  });

  it("takes the bodies real clients send: turns from a stock AI SDK chat transport and from Porter's own, and decisions", async () => {
    const ada = host.client.as('ada');
    const thread = await ada.newThread();
    const sent: unknown[] = [];
    const recording: typeof fetch = async (input, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    };
    const transport = new DefaultChatTransport<UIMessage>({
      api: `${ada.base}/threads/${thread}/turn`,
      headers: ada.headers,
      fetch: recording,
    });
    const message: UIMessage = { id: 'm1', role: 'user', parts: [{ type: 'text', text: '/call notes_add {"text":"milk"}' }] };
    const stream = await transport.sendMessages({
      chatId: thread,
      messages: [message],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    const chunks: Json[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<Json>) chunks.push(chunk);
    expect(
      chunks.some((c) => c.type === 'tool-approval-request'),
      'the turn ran',
    ).to.equal(true);
    expect(sent).to.have.length(1);
    expect(check.request('post', '/threads/{id}/turn', sent[0])).to.deep.equal([]);

    // Porter's own client transport sends only what is new.
    const other = await ada.newThread();
    const porterTransport = porterChatTransport({ wire: ada.base, headers: ada.headers, threadId: other, fetch: recording });
    const answered = await porterTransport.sendMessages({
      chatId: other,
      messages: [{ id: 'm2', role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    for await (const _ of answered as unknown as AsyncIterable<unknown>) void _;
    expect(sent).to.have.length(2);
    expect(check.request('post', '/threads/{id}/turn', sent[1])).to.deep.equal([]);
    expect(check.request('post', '/threads/{id}/turn', { continue: true })).to.deep.equal([]);
    expect(check.request('post', '/threads/{id}/turn', { continue: false }), 'a body the route refuses').to.not.deep.equal([]);

    const approvalId = (chunks.find((c) => c.type === 'tool-approval-request') as Json).approvalId as string;
    const decide = { approve: true, remember: { scope: 'tool', duration: 'session' } };
    expect(check.request('post', '/approvals/{id}/decide', decide)).to.deep.equal([]);
    const decided = await ada.json('POST', `/approvals/${approvalId}/decide`, decide);
    expect(decided.status).to.equal(200);
    expect(check.response('post', '/approvals/{id}/decide', 200, decided.body)).to.deep.equal([]);
    expect(check.request('post', '/approvals/{id}/decide', { approve: 'yes' })).to.not.deep.equal([]);
    expect(check.request('post', '/approvals/decide', { ids: [approvalId], approve: false })).to.deep.equal([]);
  });

  it('answers in the shapes it declares, field for field', async () => {
    const bob = host.client.as('bob');
    const expectShape = async (method: string, path: string, documented: string, body?: unknown, status = 200) => {
      const answer = await bob.json(method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).to.equal(status);
      expect(check.response(method, documented, status, answer.body), `${method} ${path}`).to.deep.equal([]);
      return answer.body;
    };
    const thread = (await expectShape('POST', '/threads', '/threads', {}, 201)).id as string;
    const parked = await bob.say(thread, '/call notes_clear {}');
    const approvalId = toolPart(parked.message, 'notes_clear')!.approval.id as string;
    await expectShape('GET', '/threads', '/threads');
    await expectShape('GET', `/threads/${thread}`, '/threads/{id}');
    await expectShape('POST', `/threads/${thread}/stop`, '/threads/{id}/stop', {});
    await expectShape('GET', '/status', '/status');
    await expectShape('GET', '/approvals', '/approvals');
    await expectShape('GET', `/approvals/${approvalId}`, '/approvals/{id}');
    await expectShape('POST', `/approvals/${approvalId}/decide`, '/approvals/{id}/decide', {
      approve: true,
      remember: { scope: 'tool', duration: 'standing' },
    });
    await bob.continueTurn(thread);
    await expectShape('GET', `/approvals/${approvalId}`, '/approvals/{id}');
    await expectShape('GET', '/grants', '/grants');
    await expectShape('GET', '/activity', '/activity');

    const app = await expectShape('POST', '/apps', '/apps', { prompt: 'a packing list' }, 201);
    await expectShape('GET', '/apps', '/apps');
    await expectShape('GET', `/apps/${app.id}`, '/apps/{id}');
    await expectShape('GET', `/apps/${app.id}/open`, '/apps/{id}/open');
    await expectShape('GET', `/apps/${app.id}/versions`, '/apps/{id}/versions');
    await expectShape('POST', `/apps/${app.id}/edit`, '/apps/{id}/edit', { instruction: 'add a heading' });
    await expectShape(
      'PUT',
      `/apps/${app.id}/records/items`,
      '/apps/{id}/records/{collection}',
      { data: { name: 'socks', packed: false } },
      201,
    );
    await expectShape('GET', `/apps/${app.id}/records/items`, '/apps/{id}/records/{collection}');
    await expectShape('PUT', `/apps/${app.id}/blobs/note.txt`, '/apps/{id}/blobs/{key}', {
      contentType: 'text/plain',
      data: Buffer.from('hi').toString('base64'),
    });
    await expectShape('GET', '/apps/placements?slots=header', '/apps/placements');

    const automation = await expectShape(
      'POST',
      '/automations',
      '/automations',
      { name: 'Daily', trigger: { kind: 'schedule', cron: '0 9 * * *' }, task: { prompt: 'list my notes', tools: ['notes_list'] } },
      201,
    );
    await expectShape('GET', '/automations', '/automations');
    await expectShape('POST', `/automations/${automation.id}/arm`, '/automations/{id}/arm', {});
    await expectShape('GET', `/automations/${automation.id}`, '/automations/{id}');
    await expectShape('GET', '/runs', '/runs');
    await expectShape('GET', '/doctor/base-url', '/doctor/base-url');
    await expectShape('POST', '/sync/impact', '/sync/impact', { tools: ['notes_list'] });

    expect(check.response('GET', '/threads', 200, { threads: [], nextCursor: null, total: 0 }), 'an undocumented field').to.not.deep.equal(
      [],
    );
    expect(
      check.response('GET', '/threads', 200, { threads: [{ id: 'thr_1', title: 'x' }], nextCursor: null }),
      'a missing field',
    ).to.not.deep.equal([]);
  });

  it('describes the door in the shapes it answers: discovery documents, OAuth errors, JSON-RPC', async () => {
    const answers: Array<[string, string, string, number, RequestInit?]> = [
      ['GET', '/.well-known/oauth-protected-resource/api/porter/mcp', '/.well-known/oauth-protected-resource/api/porter/mcp', 200],
      ['GET', '/.well-known/oauth-authorization-server/api/porter/mcp', '/.well-known/oauth-authorization-server/api/porter/mcp', 200],
      ['GET', '/.well-known/mcp/server-card.json', '/.well-known/mcp/server-card.json', 200],
      ['GET', `${MOUNT}/mcp/.well-known/oauth-protected-resource`, '/mcp/.well-known/oauth-protected-resource', 200],
      [
        'POST',
        `${MOUNT}/mcp/token`,
        '/mcp/token',
        400,
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=password' },
      ],
      [
        'POST',
        `${MOUNT}/mcp/register`,
        '/mcp/register',
        201,
        {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], client_name: 'Spec' }),
        },
      ],
      ['POST', `${MOUNT}/mcp`, '/mcp', 401, { headers: { 'content-type': 'application/json' }, body: '{}' }],
    ];
    for (const [method, path, documented, status, init] of answers) {
      const response = await fetch(`${host.url}${path}`, { method, ...init });
      expect(response.status, `${method} ${path}`).to.equal(status);
      expect(check.response(method, documented, status, await response.json()), `${method} ${path}`).to.deep.equal([]);
    }
  });

  it('lists no operation that only refuses: each answers some 2xx or 3xx, and /orgs is none', () => {
    const refusing: string[] = [];
    for (const [path, item] of Object.entries<Json>(document.paths))
      for (const [method, operation] of Object.entries<Json>(item))
        if (method !== 'servers' && !Object.keys(operation.responses).some((status) => /^[23]/.test(status)))
          refusing.push(`${method.toUpperCase()} ${path}`);
    expect(refusing).to.deep.equal([]);
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/orgs'))).to.deep.equal([]);
    expect(document.info.description).to.match(/`\/orgs`.*402/);
    expect(document.components.responses.MethodNotAllowed.headers).to.have.property('Allow');
  });

  it('answers a method a documented path does not take (TRACE among them) with 405 and Allow naming the methods the document lists', async () => {
    const random = new SeededRandom(27);
    const problems: string[] = [];
    for (const [path, item] of Object.entries<Json>(document.paths)) {
      const documented = Object.keys(item).filter((key) => key !== 'servers');
      const operation = item[documented[0]!];
      const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const schema = operation.parameters.find((p: Json) => p.name === name).schema;
        return encodeURIComponent(schema.pattern ? sampleMatching(schema.pattern, random) : 'x');
      });
      const url = `${item.servers ? '' : MOUNT}${filled}`;
      const answer = await rawRequest(host.url, 'TRACE', url);
      // Every documented path this URL matches, its parameters taken by their schemas, adds its methods.
      const methods = documentedMethods(document, filled, Boolean(item.servers));
      expect(methods, url).to.include.members(documented);
      const expected = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options']
        .filter((method) => methods.includes(method) || (method === 'head' && methods.includes('get')))
        .map((method) => method.toUpperCase())
        .join(', ');
      if (answer.status !== 405 || answer.headers.allow !== expected)
        problems.push(`TRACE ${url}: ${answer.status}, Allow ${answer.headers.allow} (expected ${expected}) ${answer.body.slice(0, 120)}`);
      else if (operation.tags[0] !== 'MCP door' && operation.tags[0] !== 'Discovery') {
        const body = JSON.parse(answer.body) as Json;
        expect(body.error.code, url).to.equal('method-not-allowed');
        expect(check.problems(document.components.responses.MethodNotAllowed.content['application/json'].schema, body)).to.deep.equal([]);
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it('answers 405 on the principal routes before resolving anyone, and 404 for a path no route has', async () => {
    const cy = host.client.as('cy');
    for (const [method, path, allow] of [
      ['PUT', '/threads', 'GET, HEAD, POST'],
      ['PATCH', '/approvals/apr_0123456789', 'GET, HEAD'],
      ['DELETE', '/status', 'GET, HEAD'],
      ['OPTIONS', '/threads', 'GET, HEAD, POST'],
    ] as const) {
      const answer = await cy.json(method, path, method === 'OPTIONS' ? undefined : {});
      expect(answer.status, `${method} ${path}`).to.equal(405);
      expect(answer.headers.get('allow'), `${method} ${path}`).to.equal(allow);
      expect(answer.body.error.code).to.equal('method-not-allowed');
    }
    const unknown = await rawRequest(host.url, 'TRACE', `${MOUNT}/no-such-path`);
    expect(unknown.status).to.equal(404);
    const door = await rawRequest(host.url, 'TRACE', `${MOUNT}/mcp/token`);
    expect([door.status, door.headers.allow, Object.keys(JSON.parse(door.body)).sort()]).to.deep.equal([
      405,
      'POST, OPTIONS',
      ['error', 'error_description'],
    ]);
    const orgs = await rawRequest(host.url, 'TRACE', `${MOUNT}/orgs/acme`);
    expect(orgs.status, 'organizations stay refused, whatever the method').to.equal(402);
  });

  it('refuses by its own schemas what the routes refuse: slots, toolkit, contentType, notify.url, cron, redirect_uris, token, a function body', async () => {
    const cy = host.client.as('cy');
    const app = (await cy.json('POST', '/apps', { prompt: 'a packing list' })).body.id as string;
    const automation = (
      await cy.json('POST', '/automations', { name: 'x', trigger: { kind: 'schedule', cron: '0 9 * * *' }, task: { prompt: 'p' } })
    ).body.id as string;
    const slots = document.paths['/apps/placements'].get.parameters.find((p: Json) => p.name === 'slots').schema;
    for (const [value, taken] of [
      ['header, ,footer', true],
      ['a b', false],
      [Array.from({ length: 51 }, () => 'x').join(','), false],
    ] as const) {
      expect(check.problems(slots, value).length === 0, value.slice(0, 20)).to.equal(taken);
      expect((await cy.json('GET', `/apps/placements?slots=${encodeURIComponent(value)}`)).status, value.slice(0, 20)).to.equal(
        taken ? 200 : 400,
      );
    }
    const refused: Array<[string, string, string, unknown]> = [
      ['POST', '/connections/initiate', '/connections/initiate', { toolkit: 'Git Hub', callbackUrl: 'https://host.example/done' }],
      ['POST', '/connections/initiate', '/connections/initiate', { toolkit: 'github', callbackUrl: 'https://u:p@host.example/done' }],
      ['PUT', `/apps/${app}/blobs/a.txt`, '/apps/{id}/blobs/{key}', { contentType: 'not a type', data: 'aGk=' }],
      ['PATCH', `/automations/${automation}`, '/automations/{id}', { notify: { url: 'ftp://files.example/x' } }],
      ['PATCH', `/automations/${automation}`, '/automations/{id}', { notify: { url: 'https://user@hooks.example/x' } }],
      ['PATCH', `/automations/${automation}`, '/automations/{id}', { trigger: { kind: 'schedule', cron: 'every day' } }],
      ['PATCH', `/automations/${automation}`, '/automations/{id}', { name: '   ' }],
      ['PATCH', `/automations/${automation}`, '/automations/{id}', {}],
      ['POST', `/apps/${app}/fn/run`, '/apps/{id}/fn/{name}', false],
    ];
    for (const [method, path, documented, body] of refused) {
      expect(check.request(method, documented, body), `the document refuses ${method} ${path} ${JSON.stringify(body)}`).to.not.deep.equal(
        [],
      );
      const answer = await cy.json(method, path, body);
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`).to.equal(400);
    }
    const register = document.paths['/mcp/register'].post.requestBody.content['application/json'].schema;
    for (const uri of ['http://evil.example/cb', 'javascript:alert(1)', 'https://ok.example/cb#x', 'https://u:p@ok.example/cb'])
      expect(check.problems(register, { redirect_uris: [uri] }), uri).to.not.deep.equal([]);
    for (const uri of ['https://ok.example/cb', 'http://127.0.0.1:8123/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback'])
      expect(check.problems(register, { redirect_uris: [uri], client_name: 42 }), uri).to.deep.equal([]);
    const revocation = document.paths['/mcp/revoke'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(check.problems(revocation, { token: '', client_id: 'mcpc_x' }, false)).to.not.deep.equal([]);
    expect(check.problems(revocation, { token: 't', token_type_hint: 'id_token' }, false), 'an unknown hint is ignored').to.deep.equal([]);
  });

  it('refuses in the error envelope it declares', async () => {
    const cy = host.client.as('cy');
    const refusals: Array<[string, string, string, number, unknown?]> = [
      ['GET', '/threads/thr_nobody', '/threads/{id}', 404],
      ['GET', '/threads?limit=0', '/threads', 400],
      ['POST', '/approvals/decide', '/approvals/decide', 400, { ids: [], approve: true }],
      ['GET', '/approvals?org=acme', '/approvals', 402],
      ['GET', '/connections', '/connections', 501],
    ];
    for (const [method, path, documented, status, body] of refusals) {
      const answer = await cy.json(method, path, body);
      expect(answer.status, `${method} ${path}`).to.equal(status);
      expect(answer.body.error.code).to.be.a('string');
      expect(check.response(method, documented, status, answer.body), `${method} ${path}`).to.deep.equal([]);
    }
  });
});

describe('The OpenAPI document of the wire, per composition', function () {
  this.timeout(30_000);
  const SECRET = 'a-secret-that-is-long-enough-for-cookies-0123456789';
  const running: Array<{ porter: Porter; server: RunningServer }> = [];
  const start = async (options: Record<string, unknown>) => {
    const porter = await createPorter(
      { store: new MemoryStore({ clock: new ManualClock() }), secret: SECRET, logger: 'silent', ...options },
      {},
    );
    const server = await serve(porter.listener);
    running.push({ porter, server });
    return { porter, document: await documentOf(server.url, porter.mount) };
  };

  afterEach(async () => {
    for (const { porter, server } of running.splice(0)) {
      await server.close();
      await porter.close();
    }
  });

  it('is answered in production, without the development routes, the development doctor or the door', async () => {
    const { porter, document } = await start({});
    expectDocumentMatchesRouters(porter, document);
    expect(document.paths['/doctor/base-url']).to.have.property('get');
    for (const path of ['/sync/impact', '/doctor/present', '/doctor/act-as', '/mcp'])
      expect(document.paths, path).to.not.have.property(path);
    expect(document.paths).to.have.property('/apps');
    expect(document.components.securitySchemes).to.not.have.property('doorOAuth');
    const fetched = await porter.fetch(new Request(`http://host.test${MOUNT}/openapi.json`));
    expect(await fetched.json(), 'the same document through the fetch mount').to.deep.equal(document);
  });

  it('catches a route registered without a declaration', async () => {
    const { porter, document } = await start({});
    const wire = get(containerOf(porter), WIRE_TOKENS.KoaWire);
    const router = wire.app.middleware.map((middleware) => (middleware as { router?: Router }).router).find((r) => r !== undefined)!;
    router.get('/undeclared', (ctx) => void (ctx.body = {}));
    expect(() => expectDocumentMatchesRouters(porter, document)).to.throw(/GET \/undeclared/);
  });

  it('leaves out the apps and automations families when they are unmounted', async () => {
    const { porter, document } = await start({ apps: false, automations: false });
    expectDocumentMatchesRouters(porter, document);
    const paths = Object.keys(document.paths);
    expect(paths.filter((p) => /^\/(apps|automations|runs|tick|webhooks)(\/|$)/.test(p))).to.deep.equal([]);
    expect(document.components.schemas, 'no shapes of unmounted families').to.not.have.property('App');
    expect(paths).to.include('/threads');
  });

  it('describes a door whose OAuth an external issuer owns, under another mount', async () => {
    const { porter, document } = await start({
      mount: '/agent',
      mcp: true,
      oauth: { principal: () => null },
      remoteAs: { issuer: 'https://issuer.example' },
    });
    const validator = new Validator();
    expect((await validator.validate(structuredClone(document))).valid).to.equal(true);
    expect(document.servers[0].url).to.equal('/agent');
    expect(document.components.securitySchemes.doorOAuth).to.include({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    for (const path of ['/mcp/authorize', '/mcp/token', '/mcp/revoke', '/mcp/register'])
      expect(Object.keys(document.paths[path] ?? {}), `${path} only says the issuer owns it: no operation`).to.not.include.members([
        'get',
        'post',
      ]);
    expect(document.paths['/.well-known/oauth-authorization-server/agent/mcp']?.get, 'nor is its metadata served here').to.equal(undefined);
    const token = await porter.fetch(new Request('http://host.test/agent/mcp/token', { method: 'POST' }));
    expect([token.status, Object.keys((await token.json()) as Json).sort()]).to.deep.equal([404, ['error', 'error_description']]);
    expect(document.paths).to.have.property('/.well-known/oauth-protected-resource/agent/mcp');
    expectDocumentMatchesRouters(porter, document);
  });
});
