import { expect } from 'chai';
import { strToU8, zipSync } from 'fflate';
import { devHost } from '../support/dev-host-fixture.js';
import { tinyDocument } from '../support/apps-documents.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../support/postgres.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import type { WireClient } from '../support/turn-client.js';
import { STATUS_BY_CODE } from '../../adapters/http/error-envelope.js';
import { RecordingLogger } from '../support/fakes.js';
import { accessTokenFor, initializeRequest } from '../support/door-client.js';

/**
 * The hostile-input sweep (issue 13): every route and method the wire's own OpenAPI document
 * declares, sent hostile ids, queries, bodies and content types, on SQLite and PostgreSQL. Nothing
 * may answer 500, every wire refusal is the contract's envelope, and nothing hangs.
 *
 * Bodies over the size limits have their own tests (body-limits.test.ts); so does JSON nesting
 * past the limit in each free-form field (json-depth.test.ts). Here a 5,000-deep body goes to
 * every route.
 */

const PER_REQUEST_MS = 10_000;
const CONCURRENCY = 6;

interface Probe {
  readonly method: string;
  readonly url: string;
  readonly label: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Door routes answer in OAuth, JSON-RPC or page shapes, not the wire envelope. */
  readonly door: boolean;
}

interface Finding {
  readonly probe: Probe;
  readonly problem: string;
}

type Schema = { $ref?: string; properties?: Record<string, Schema>; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] };
type Operation = {
  operationId: string;
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema?: Schema }> };
};
type PathItem = Record<string, unknown> & { servers?: Array<{ url: string }> };
interface OpenApi {
  servers: Array<{ url: string }>;
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, Schema> };
}

const NUL = '%00';
const LONG = 'a'.repeat(600);

/** Path segments (already URL-encoded) that no id, name or key can be. */
const HOSTILE_SEGMENTS: ReadonlyArray<[string, string]> = [
  ['NUL', NUL],
  ['NUL inside', `x${NUL}y`],
  ['600 characters', LONG],
  ['unicode', encodeURIComponent('ü🙂名前')],
  ['dot-dot slash', '..%2f..%2fetc%2fpasswd'],
  ['encoded dots', '%2e%2e'],
  ['broken UTF-8', '%ff%fe'],
  ['lone surrogate', '%ed%a0%80'],
  ['a lone percent', '%'],
  ['control characters', '%0a%0d%1b'],
  ['spaces', '%20%20'],
];

/** Raw JSON bodies of every wrong kind. */
const BODY_VARIANTS: ReadonlyArray<[string, string]> = [
  ['empty', ''],
  ['an array', '[]'],
  ['an array of objects', '[{}]'],
  ['a string', '"hello"'],
  ['null', 'null'],
  ['a number', '123'],
  ['true', 'true'],
  ['malformed', '{'],
  ['__proto__', '{"__proto__":{"polluted":true}}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}'],
  ['a NUL string', '{"x":"\\u0000"}'],
  ['a lone surrogate', '{"x":"\\ud800"}'],
  ['a huge string', JSON.stringify({ x: 'a'.repeat(1024 * 1024) })],
  ['nested 5,000 deep', `{"x":${'['.repeat(5000)}${']'.repeat(5000)}}`],
];

/** Wrong values for one field of a route's body. */
const FIELD_VALUES: ReadonlyArray<[string, unknown]> = [
  ['a number', 123],
  ['a NUL string', 'a\u0000b'],
  ['only NUL', '\u0000'],
  ['a lone surrogate', 'a\ud800b'],
  ['a long string', 'a'.repeat(100_000)],
  ['an array', [1, 'two', null]],
  ['an object', { nested: { deeper: ['x'] } }],
  ['__proto__ object', JSON.parse('{"__proto__":{"polluted":true}}')],
  ['null', null],
  ['a negative number', -1e308],
  ['nested 1,000 deep', Array.from({ length: 1000 }).reduce<unknown>((inner) => [inner], [])],
];

const QUERY_VALUES: ReadonlyArray<[string, string]> = [
  ['a word', 'abc'],
  ['negative', '-1'],
  ['overflowing', '1e309'],
  ['400 digits', '9'.repeat(400)],
  ['NUL', NUL],
  ['a long string', 'a'.repeat(5000)],
  ['repeated', 'a&__NAME__=b'],
];

function describeSweep(label: string, database: () => Promise<{ url: string; done(): Promise<void> } | null>) {
  describe(`The hostile-input sweep over every route (${label})`, function () {
    this.timeout(240_000);
    let host: DevHost & { client: WireClient };
    let db: { url: string; done(): Promise<void> } | null = null;
    let ada: WireClient;
    let bob: WireClient;
    let doc: OpenApi;
    const logger = new RecordingLogger();
    const mine: Record<string, string> = {};
    const theirs: Record<string, string> = {};

    before(async function () {
      db = await database();
      if (db === null) return this.skip();
      host = await devHost({ porter: { logger }, ...(db.url ? { env: { PORTER_DATABASE_URL: db.url } } : {}) });
      ada = host.client.as('ada');
      bob = host.client.as('bob');
      doc = (await (await fetch(`${host.url}${host.porter.mount}/openapi.json`)).json()) as OpenApi;
      for (const [who, ids] of [
        [ada, mine],
        [bob, theirs],
      ] as const) {
        ids.thread = await who.newThread();
        ids.app = await importApp(who);
        const automation = await who.json('POST', '/automations', {
          name: 'sweep',
          trigger: { kind: 'schedule', cron: '0 9 * * *' },
          task: { prompt: 'hello' },
        });
        expect(automation.status).to.equal(201);
        ids.automation = automation.body.id;
      }
    });

    after(async () => {
      await host?.close();
      await db?.done();
    });

    async function importApp(who: WireClient): Promise<string> {
      const archive = zipSync({ 'app.json': strToU8(JSON.stringify(tinyDocument())) });
      const response = await fetch(`${who.base}/apps/import`, {
        method: 'POST',
        headers: { ...who.headers, 'content-type': 'application/vnd.porter.app' },
        body: archive,
      });
      expect(response.status).to.equal(201);
      return ((await response.json()) as { id: string }).id;
    }

    /** A value of each path parameter that names something of ada's (or could). */
    function validParam(path: string, name: string): string {
      if (name === 'id') {
        if (path.startsWith('/threads')) return mine.thread!;
        if (path.startsWith('/apps')) return mine.app!;
        if (path.startsWith('/automations')) return mine.automation!;
        if (path.startsWith('/runs')) return 'run_01J00000000000000000000000';
        if (path.startsWith('/approvals')) return 'apr_01J00000000000000000000000';
        if (path.startsWith('/grants')) return 'grt_01J00000000000000000000000';
        if (path.startsWith('/connections')) return 'con_01J00000000000000000000000';
      }
      return (
        { collection: 'items', recordId: 'r1', key: 'pic.png', name: 'summarise', action: 'add', rest: 'index.html', source: 'demo' }[
          name
        ] ?? 'x'
      );
    }

    /** Ids of someone else's things, where the families have them. */
    function theirParam(path: string): string | null {
      if (path.startsWith('/threads')) return theirs.thread!;
      if (path.startsWith('/apps')) return theirs.app!;
      if (path.startsWith('/automations')) return theirs.automation!;
      return null;
    }

    function baseOf(item: PathItem): string {
      const server = item.servers?.[0]?.url ?? doc.servers[0]!.url;
      return new URL(server, host.url).toString().replace(/\/$/, '');
    }

    function fieldsOf(schema: Schema | undefined, seen = new Set<string>()): string[] {
      if (!schema) return [];
      if (schema.$ref) {
        const name = schema.$ref.split('/').pop()!;
        if (seen.has(name)) return [];
        seen.add(name);
        return fieldsOf(doc.components.schemas[name], seen);
      }
      const own = Object.keys(schema.properties ?? {});
      const nested = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap((each) => fieldsOf(each, seen));
      return [...new Set([...own, ...nested])];
    }

    /** Every probe for one route and method. */
    function probesOf(path: string, item: PathItem, method: string, operation: Operation): Probe[] {
      const door = path.startsWith('/mcp') || path.startsWith('/.well-known');
      const params = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      const queries = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const fill = (values: Record<string, string>) =>
        path.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => values[name] ?? encodeURIComponent(validParam(path, name)));
      const base = baseOf(item);
      const upper = method.toUpperCase();
      const jsonHeaders = { ...ada.headers, 'content-type': 'application/json' };
      const writes = !['GET', 'OPTIONS', 'HEAD'].includes(upper);
      const benign = writes ? '{}' : undefined;
      const probes: Probe[] = [];
      const at = (relative: string, what: string, extra: Partial<Probe> = {}): Probe => ({
        method: upper,
        url: `${base}${relative}`,
        label: `${upper} ${path}: ${what}`,
        headers: writes ? jsonHeaders : ada.headers,
        ...(benign !== undefined ? { body: benign } : {}),
        door,
        ...extra,
      });

      for (const name of params) {
        for (const [what, segment] of HOSTILE_SEGMENTS) probes.push(at(fill({ [name]: segment }), `${name} = ${what}`));
        const valid = validParam(path, name);
        const prefix = /^[a-z]+_/.exec(valid)?.[0];
        if (prefix) {
          probes.push(at(fill({ [name]: `${prefix}${NUL}` }), `${name} = prefix and NUL`));
          probes.push(at(fill({ [name]: `${prefix}${'0'.repeat(26)}` }), `${name} = well-formed, unknown`));
          probes.push(at(fill({ [name]: `${prefix}${'0'.repeat(200)}` }), `${name} = prefix and 200 characters`));
        }
        const foreign = name === 'id' ? theirParam(path) : null;
        if (foreign) probes.push(at(fill({ [name]: foreign }), `${name} = someone else's`, {}));
      }
      for (const name of queries) {
        for (const [what, value] of QUERY_VALUES)
          probes.push(at(`${fill({})}?${name}=${value.replace('__NAME__', name)}`, `query ${name} = ${what}`));
      }
      if (queries.length > 0 || upper === 'GET') {
        probes.push(at(`${fill({})}?__proto__[polluted]=1&constructor[prototype][polluted]=1`, 'prototype keys in the query'));
      }
      if (writes) {
        for (const [what, body] of BODY_VARIANTS) probes.push(at(fill({}), `body ${what}`, { body }));
        const fields = fieldsOf(operation.requestBody?.content['application/json']?.schema);
        for (const field of fields) {
          for (const [what, value] of FIELD_VALUES)
            probes.push(at(fill({}), `body.${field} = ${what}`, { body: JSON.stringify({ [field]: value }) }));
        }
        for (const type of [
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-16',
          'multipart/form-data; boundary=x',
          'application/vnd.porter.app',
        ]) {
          probes.push(at(fill({}), `content type ${type}`, { headers: { ...ada.headers, 'content-type': type }, body: '{"a":1}' }));
        }
        probes.push(at(fill({}), 'no content type', { headers: ada.headers, body: '{"a":1}' }));
        probes.push(
          at(fill({}), 'cookie-signed text/plain', {
            headers: { cookie: 'porter_demo_user=ada', 'content-type': 'text/plain' },
            body: '{}',
          }),
        );
      }
      return probes;
    }

    /** The door's OAuth endpoints with client ids that cannot exist. */
    function doorProbes(): Probe[] {
      const base = `${host.url}${host.porter.mount}`;
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const clients = [
        NUL,
        `mcpc_${NUL}`,
        `mcpc_0000000000${NUL}`,
        LONG,
        `mcpc_${'0'.repeat(600)}`,
        encodeURIComponent('ü🙂'),
        '%ff',
        '%0a',
      ];
      const probes: Probe[] = [];
      for (const client of clients) {
        probes.push({
          method: 'POST',
          url: `${base}/mcp/token`,
          label: `POST /mcp/token: client_id ${client.slice(0, 20)}`,
          headers: form,
          body: `grant_type=authorization_code&code=abc&code_verifier=${'a'.repeat(43)}&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&client_id=${client}`,
          door: true,
        });
        probes.push({
          method: 'POST',
          url: `${base}/mcp/token`,
          label: `POST /mcp/token refresh: client_id ${client.slice(0, 20)}`,
          headers: form,
          body: `grant_type=refresh_token&refresh_token=abc&client_id=${client}`,
          door: true,
        });
        probes.push({
          method: 'POST',
          url: `${base}/mcp/revoke`,
          label: `POST /mcp/revoke: client_id ${client.slice(0, 20)}`,
          headers: form,
          body: `token=abc&client_id=${client}`,
          door: true,
        });
        probes.push({
          method: 'GET',
          url: `${base}/mcp/authorize?response_type=code&client_id=${client}&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
          label: `GET /mcp/authorize: client_id ${client.slice(0, 20)}`,
          headers: ada.headers,
          door: true,
        });
      }
      probes.push({
        method: 'POST',
        url: `${base}/mcp/token`,
        label: 'POST /mcp/token: NUL code',
        headers: form,
        body: `grant_type=authorization_code&code=${NUL}&code_verifier=${NUL}&client_id=${NUL}`,
        door: true,
      });
      probes.push({
        method: 'POST',
        url: `${base}/mcp/authorize`,
        label: 'POST /mcp/authorize: NUL handle',
        headers: { ...form, ...ada.headers, origin: host.url },
        body: `handle=${NUL}&decision=allow`,
        door: true,
      });
      probes.push({
        method: 'POST',
        url: `${base}/mcp`,
        label: 'POST /mcp: NUL bearer',
        headers: { 'content-type': 'application/json', authorization: 'Bearer a\tb' },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        door: true,
      });
      return probes;
    }

    async function send(probe: Probe): Promise<Finding | null> {
      let response: Response;
      let text: string;
      try {
        response = await fetch(probe.url, {
          method: probe.method,
          headers: probe.headers ?? {},
          ...(probe.body !== undefined && probe.method !== 'GET' ? { body: probe.body } : {}),
          redirect: 'manual',
          signal: AbortSignal.timeout(PER_REQUEST_MS),
        });
        text = await response.text();
      } catch (error) {
        return { probe, problem: `no answer: ${(error as Error).message}` };
      }
      if (response.status >= 500 && response.status !== 501 && response.status !== 503)
        return { probe, problem: `${response.status}: ${text.slice(0, 200)}` };
      // A served app's server restarting (the sweep graduates the app again and again) is a real 503.
      const servedApp = /\/apps\/\{id\}\/(view|fn|actions)/.test(probe.label) && text.includes('did not answer');
      if (response.status === 503 && !servedApp) return { probe, problem: `503 from input: ${text.slice(0, 200)}` };
      if (response.status < 400 || probe.door) return null;
      let body: { error?: { code?: unknown; message?: unknown } };
      try {
        body = JSON.parse(text);
      } catch {
        return { probe, problem: `${response.status} without a JSON envelope: ${text.slice(0, 120)}` };
      }
      const code = body.error?.code;
      if (typeof code !== 'string' || typeof body.error?.message !== 'string')
        return { probe, problem: `${response.status} not in the envelope: ${text.slice(0, 120)}` };
      if (STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE] !== response.status)
        return { probe, problem: `${response.status} with code ${code}` };
      return null;
    }

    async function sweep(probes: Probe[]): Promise<Finding[]> {
      const findings: Finding[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < probes.length) {
            const finding = await send(probes[next++]!);
            if (finding) findings.push(finding);
          }
        }),
      );
      return findings;
    }

    /** The findings, and what the host logged as unexpected (the causes of the 500s). */
    const report = (findings: Finding[]) =>
      [
        ...findings.map((f) => `${f.probe.label} → ${f.problem}`),
        ...logger.entries
          .filter((e) => e.level === 'error')
          .map((e) => `logged: ${e.message} ${JSON.stringify(e.fields ?? {}).slice(0, 600)}`),
      ].join('\n');

    it('answers every hostile variant of every route without a 500, in the envelope, and never hangs', async () => {
      const probes: Probe[] = [];
      // Deletions last, so the things the other probes name still exist while they run.
      const order = (method: string) => (method === 'delete' ? 1 : 0);
      const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, op]) => typeof op === 'object' && op !== null && 'operationId' in op)
          .map(([method, op]) => ({ path, item, method, op: op as Operation })),
      );
      operations.sort((a, b) => order(a.method) - order(b.method));
      for (const { path, item, method, op } of operations) probes.push(...probesOf(path, item, method, op));
      expect(probes.length).to.be.greaterThan(1500);
      const findings = await sweep(probes);
      expect(findings, `${findings.length} of ${probes.length} probes:\n${report(findings)}`).to.deep.equal([]);
    });

    it("answers 404 for every id route given an id that cannot exist, or someone else's", async () => {
      const ids = ['%00', `thr_${NUL}`, LONG, '..%2f..%2fetc%2fpasswd', encodeURIComponent('ü🙂'), '%0a'];
      const routes = [
        ['GET', `/threads/{id}`],
        ['DELETE', `/threads/{id}`],
        ['GET', `/threads/{id}/stream`],
        ['GET', `/apps/{id}`],
        ['GET', `/apps/{id}/records/items`],
        ['GET', `/automations/{id}`],
        ['PATCH', `/automations/{id}`],
        ['GET', `/runs/{id}`],
        ['POST', `/runs/{id}/stop`],
        ['GET', `/approvals/{id}`],
        ['POST', `/approvals/{id}/decide`],
        ['DELETE', `/grants/{id}`],
        ['GET', `/connections/{id}`],
        ['GET', `/memories/{id}`],
        ['DELETE', `/memories/{id}`],
        ['GET', `/knowledge/documents/{id}`],
        ['DELETE', `/knowledge/documents/{id}`],
        ['GET', `/knowledge/passages/{id}`],
      ] as const;
      for (const [method, path] of routes) {
        for (const id of ids) {
          const response = await fetch(`${ada.base}${path.replace('{id}', id)}`, {
            method,
            headers: { ...ada.headers, 'content-type': 'application/json' },
            ...(method === 'GET'
              ? {}
              : { body: method === 'POST' && path.includes('decide') ? '{"approve":true}' : method === 'PATCH' ? '{"name":"x"}' : '{}' }),
          });
          expect(response.status, `${method} ${path} with ${id.slice(0, 30)}`).to.equal(404);
          expect(((await response.json()) as { error: { code: string } }).error.code).to.equal('not-found');
        }
      }
      for (const [path, id] of [
        ['/threads', theirs.thread],
        ['/apps', theirs.app],
        ['/automations', theirs.automation],
        ['/automations', 'xyz'],
        ['/runs', 'bogus'],
      ] as const) {
        const response = await ada.json('GET', `${path}/${id}`);
        expect(response.status, `${path}/${id}`).to.equal(404);
        expect(response.body.error.code).to.equal('not-found');
      }
      // A tool-call id as models and MCP clients mint them names an approval (none here): 404, not 400.
      for (const id of ['call_abc-123', 'toolu_01A09q90qw90lq917835lq9', 'functions.get_weather:0']) {
        expect((await ada.json('GET', `/approvals/${encodeURIComponent(id)}`)).status, id).to.equal(404);
      }
    });

    it('refuses client ids that cannot exist at the door as the RFCs say, never a 500', async () => {
      const findings = await sweep(doorProbes());
      expect(findings, report(findings)).to.deep.equal([]);
      const base = `${host.url}${host.porter.mount}`;
      const token = await fetch(`${base}/mcp/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=authorization_code&code=abc&code_verifier=${'a'.repeat(43)}&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&client_id=mcpc_${NUL}`,
      });
      expect(token.status).to.equal(401);
      expect(((await token.json()) as { error: string }).error).to.equal('invalid_client');
      const revoke = await fetch(`${base}/mcp/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=abc&client_id=${NUL}`,
      });
      expect(revoke.status).to.equal(400);
      expect(((await revoke.json()) as { error: string }).error).to.equal('invalid_client');
      const authorize = await fetch(
        `${base}/mcp/authorize?response_type=code&client_id=${NUL}&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
        { headers: ada.headers, redirect: 'manual' },
      );
      expect(authorize.status).to.equal(400);
      expect(authorize.headers.get('location')).to.equal(null);
    });

    it('answers hostile JSON-RPC through the MCP door, signed in, without a 500 or a hang', async () => {
      const door = new URL(`${ada.base}/mcp`);
      const headers = {
        authorization: `Bearer ${await accessTokenFor(door, 'ada')}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const opened = await fetch(door, {
        method: 'POST',
        headers,
        body: JSON.stringify(initializeRequest('sweep')),
      });
      expect(opened.status).to.equal(200);
      const session = opened.headers.get('mcp-session-id')!;
      await fetch(door, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': session },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      });
      const listed = await fetch(door, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': session },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      const tools = ((await listed.json()) as { result: { tools: Array<{ name: string; inputSchema: Schema }> } }).result.tools;
      expect(tools.length).to.be.greaterThan(0);
      // One id for every call, several in flight at once: a reused id is refused, never left unanswered.
      const call = (name: unknown, args: unknown, id: unknown = 3) =>
        JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
      const bodies: Array<[string, string]> = [
        ['a batch of nothing', '[]'],
        ['a string', '"ping"'],
        ['no method', '{"jsonrpc":"2.0","id":9}'],
        ['an unknown method', '{"jsonrpc":"2.0","id":9,"method":"\u0000"}'],
        ['an object id', '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}'],
        ['a NUL tool name', call('a\u0000b', {})],
        ['a long tool name', call('x'.repeat(5000), {})],
        ['a numeric tool name', call(42, {})],
        ['arguments as an array', call(tools[0]!.name, [1, 2])],
        ['arguments as a string', call(tools[0]!.name, 'x')],
        [
          'prototype keys',
          `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"${tools[0]!.name}","arguments":{"__proto__":{"polluted":true}}}}`,
        ],
      ];
      for (const tool of tools) {
        for (const field of fieldsOf(tool.inputSchema)) {
          for (const [what, value] of FIELD_VALUES) bodies.push([`${tool.name}.${field} = ${what}`, call(tool.name, { [field]: value })]);
        }
      }
      const probes: Probe[] = bodies.map(([what, body]) => ({
        method: 'POST',
        url: door.href,
        label: `POST /mcp tools: ${what}`,
        headers: { ...headers, 'mcp-session-id': session },
        body,
        door: true,
      }));
      probes.push({
        method: 'POST',
        url: door.href,
        label: 'POST /mcp: a 600-character session id',
        headers: { ...headers, 'mcp-session-id': LONG },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        door: true,
      });
      probes.push({
        method: 'GET',
        url: door.href,
        label: 'GET /mcp: an unknown session id',
        headers: { ...headers, accept: 'text/event-stream', 'mcp-session-id': 'ü'.repeat(40) },
        door: true,
      });
      const findings = await sweep(probes);
      expect(findings, report(findings)).to.deep.equal([]);
    });

    it('refuses an absurd demo user with a 400 in the envelope, on the wire and the demo sign-in', async () => {
      for (const name of [LONG, 'ada\tbob', 'ada\u0085']) {
        const response = await fetch(`${ada.base}/threads`, { headers: { 'x-demo-user': name } });
        expect(response.status, JSON.stringify(name).slice(0, 30)).to.equal(400);
        expect(((await response.json()) as { error: { code: string } }).error.code).to.equal('validation');
      }
      const cookie = await fetch(`${ada.base}/threads`, { headers: { cookie: `porter_demo_user=${LONG}` } });
      expect(cookie.status).to.equal(400);
      const percent = await fetch(`${ada.base}/threads`, { headers: { cookie: 'porter_demo_user=ada%00' } });
      expect(percent.status).to.be.oneOf([200, 400]);
      const signIn = await fetch(`${host.url}/dev/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `name=${LONG}%00`,
        redirect: 'manual',
      });
      expect(signIn.status).to.equal(400);
    });
  });
}

describeSweep('SQLite', async () => ({ url: '', done: async () => {} }));

describeSweep('PostgreSQL', async () => {
  const server = await postgresServerUrl();
  if (!server) return null;
  const database: TestDatabase = await createTestDatabase(server);
  return { url: database.url, done: () => database.drop() };
});
