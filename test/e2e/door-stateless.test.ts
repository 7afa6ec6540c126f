import { DatabaseSync } from 'node:sqlite';
import { expect } from 'chai';
import pg from 'pg';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SdkHttpError,
  type CallToolResult,
} from '@modelcontextprotocol/client';
import { connectSdk, connectSdkV2 } from '../support/door-client.js';
import { devHostPerTest } from '../support/dev-host-fixture.js';
import { clusterPerSuite, type TurnCluster } from '../support/turn-cluster.js';

const MODERN = '2026-07-28';
const PINNED = { versionNegotiation: { mode: { pin: MODERN } } };

/** The door sessions stored in the SQLite file the instances share. */
function storedSessionsOnSqlite(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const row = db.prepare("select count(*) as n from porter_records where collection = 'door-sessions'").get() as { n: number };
    return Number(row.n);
  } finally {
    db.close();
  }
}

/** The door sessions stored in the PostgreSQL database the instances share. */
async function storedSessionsOnPostgres(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("select count(*)::int as n from porter_records where collection = 'door-sessions'");
    return (rows[0] as { n: number }).n;
  } finally {
    await client.end();
  }
}

/** A 2026-07-28 request as a client without the SDK sends it: the revision and capabilities in `_meta`, and the standard headers. */
function modernRpc(
  door: URL,
  token: string | null,
  message: { id: number; method: string; params?: Record<string, unknown> },
  headers = {},
) {
  const { _meta, ...params } = message.params ?? {};
  return fetch(door, {
    method: 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': message.method,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: message.id,
      method: message.method,
      params: {
        ...params,
        _meta: {
          [PROTOCOL_VERSION_META_KEY]: MODERN,
          [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
          [CLIENT_CAPABILITIES_META_KEY]: {},
          ...(_meta as object | undefined),
        },
      },
    }),
  });
}

for (const backend of ['SQLite file', 'PostgreSQL'] as const) {
  describe(`The MCP door on the stateless 2026-07-28 revision, two instances behind a round-robin balancer (${backend})`, function () {
    this.timeout(90_000);
    const running = clusterPerSuite(2, backend === 'PostgreSQL' ? 'postgresql' : 'sqlite', { door: true });
    let cluster: TurnCluster;
    let door: URL;
    let storedSessions: () => Promise<number>;

    before(() => {
      cluster = running();
      door = new URL(`${cluster.wire}/mcp`);
      const { databaseUrl } = running();
      storedSessions =
        backend === 'PostgreSQL'
          ? () => storedSessionsOnPostgres(databaseUrl)
          : async () => storedSessionsOnSqlite(databaseUrl.slice('sqlite:'.length));
    });

    it('serves server/discover, tools/list and tools/call as an OAuth-authorized person on either instance, with no session anywhere', async () => {
      const from = cluster.proxy.served.length;
      const { client } = await connectSdkV2(door, 'ada', PINNED);
      expect(client.getProtocolEra()).to.equal('modern');
      expect(client.getNegotiatedProtocolVersion()).to.equal(MODERN);
      expect(client.getDiscoverResult()).to.deep.include({
        supportedVersions: [MODERN],
        capabilities: { tools: { listChanged: false }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
      });
      expect(client.getDiscoverResult()!.instructions).to.contain('approval');
      expect(client.getServerVersion()).to.deep.include({ name: 'porter' });
      expect(client.getServerCapabilities()).to.deep.include({ tools: { listChanged: false } });
      expect((await client.discover()).supportedVersions).to.include(MODERN);

      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).to.include('sleep');
      for (let i = 0; i < 6; i++) {
        const result = (await client.callTool({ name: 'sleep', arguments: { seconds: 0 } })) as CallToolResult;
        expect(result.isError ?? false, JSON.stringify(result.content)).to.equal(false);
      }
      await client.close();

      const transport = cluster.proxy.served.slice(from).filter((served) => new URL(served.path, door).pathname === door.pathname);
      expect(transport.length).to.be.greaterThan(8);
      expect([...new Set(transport.map((served) => served.upstream))].sort(), 'both instances answered').to.deep.equal([0, 1]);
      expect(
        transport.filter((served) => served.session.sent !== null || served.session.issued !== null),
        'no Mcp-Session-Id sent or issued',
      ).to.deep.equal([]);
      expect(await storedSessions(), 'nothing in the session store').to.equal(0);
    });

    it('keeps serving 2025-11-25 clients on the same endpoint with their sessions (the v1 SDK, and v2 in legacy mode)', async () => {
      const v1 = await connectSdk(door, 'bea');
      expect(v1.transport.sessionId).to.be.a('string');
      const v2 = await connectSdkV2(door, 'bea');
      expect(v2.client.getProtocolEra()).to.equal('legacy');
      expect(v2.client.getNegotiatedProtocolVersion()).to.equal('2025-11-25');
      expect(v2.transport.sessionId).to.be.a('string');
      for (const client of [v1.client, v2.client])
        for (let i = 0; i < 3; i++) {
          const result = (await client.callTool({ name: 'sleep', arguments: { seconds: 0 } })) as CallToolResult;
          expect(result.isError ?? false).to.equal(false);
        }
      expect(await storedSessions()).to.equal(2);
      await v1.client.close();
      await v2.client.close();
    });
  });
}

describe('The MCP door on the stateless revision: refusals in JSON-RPC, never 500', function () {
  this.timeout(60_000);
  const start = devHostPerTest();

  it('answers an unsupported revision and a malformed _meta with a JSON-RPC error naming what is wrong', async () => {
    const { door } = await start();
    const { provider } = await connectSdkV2(door, 'ada', PINNED);
    const token = provider.tokens()!.access_token;

    const unsupported = await modernRpc(
      door,
      token,
      { id: 1, method: 'tools/list', params: { _meta: { [PROTOCOL_VERSION_META_KEY]: '2099-01-01' } } },
      { 'mcp-protocol-version': '2099-01-01' },
    );
    expect(unsupported.status).to.equal(400);
    const unsupportedBody = (await unsupported.json()) as { id: unknown; error: { code: number; message: string; data: unknown } };
    expect(unsupportedBody.id).to.equal(1);
    expect(unsupportedBody.error.code).to.equal(-32022);
    expect(unsupportedBody.error.message).to.match(/protocol version/i);
    expect(unsupportedBody.error.data).to.deep.include({ supported: [MODERN], requested: '2099-01-01' });

    const malformed = await modernRpc(door, token, {
      id: 2,
      method: 'tools/list',
      params: { _meta: { [CLIENT_CAPABILITIES_META_KEY]: 'every one' } },
    });
    expect(malformed.status).to.be.within(400, 499);
    const malformedBody = (await malformed.json()) as { error: { code: number; message: string } };
    expect(malformedBody.error.code).to.equal(-32602);

    const mismatched = await modernRpc(door, token, { id: 3, method: 'tools/list' }, { 'mcp-method': 'tools/call' });
    expect(mismatched.status).to.be.within(400, 499);
    expect(((await mismatched.json()) as { error: { message: string } }).error.message).to.contain('Mcp-Method');

    const listed = await modernRpc(door, token, { id: 4, method: 'tools/list' });
    expect(listed.status).to.equal(200);
    expect(listed.headers.get('mcp-session-id')).to.equal(null);
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools).to.not.be.empty;
  });

  it('checks the bearer and the Origin on a stateless request as on a session', async () => {
    const { door } = await start();
    const { provider } = await connectSdkV2(door, 'ada', PINNED);
    const token = provider.tokens()!.access_token;

    const anonymous = await modernRpc(door, null, { id: 1, method: 'tools/list' });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('www-authenticate')).to.match(/^Bearer resource_metadata="/);

    const forged = await modernRpc(door, 'not-a-token', { id: 2, method: 'tools/list' });
    expect(forged.status).to.equal(401);
    expect(forged.headers.get('www-authenticate')).to.contain('error="invalid_token"');

    const foreign = await modernRpc(door, token, { id: 3, method: 'tools/list' }, { origin: 'https://evil.example' });
    expect(foreign.status).to.equal(403);
    expect(await foreign.json()).to.deep.include({
      error: { code: -32000, message: 'Forbidden: this Origin may not use this MCP server' },
    });
  });

  it('answers a call over the breaker with 429, Retry-After and JSON-RPC -32029, and parks nothing', async () => {
    const { host, door } = await start({ breakers: { toolCallsPerMinute: 2 } });
    const { client } = await connectSdkV2(door, 'ada', PINNED);
    for (let i = 0; i < 2; i++) {
      const result = (await client.callTool({ name: 'notes_list', arguments: {} })) as CallToolResult;
      expect(result.isError ?? false).to.equal(false);
    }
    const refused = await client.callTool({ name: 'notes_list', arguments: {} }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(SdkHttpError);
    expect((refused as SdkHttpError).status).to.equal(429);
    const { error } = JSON.parse((refused as SdkHttpError).data.text as string) as {
      error: { code: number; message: string; data: Record<string, unknown> };
    };
    expect(error.code).to.equal(-32029);
    expect(error.message).to.match(
      /^Rate limited\. The toolCallsPerMinute breaker tripped \(2 tool calls a minute\).*try again in (about )?\d+ (seconds?|minutes?)$/,
    );
    expect(error.data).to.include({ status: 'rate-limited', budget: 'toolCallsPerMinute' });

    const { provider } = await connectSdkV2(door, 'ada', PINNED);
    const raw = await modernRpc(
      door,
      provider.tokens()!.access_token,
      {
        id: 9,
        method: 'tools/call',
        params: { name: 'notes_list', arguments: {} },
      },
      { 'mcp-name': 'notes_list' },
    );
    expect(raw.status).to.equal(429);
    expect(Number(raw.headers.get('retry-after'))).to.be.within(1, 61);
    expect((await raw.json()) as { id: number; error: { code: number } }).to.deep.include({ id: 9 });
    expect((await host.client.as('ada').json('GET', '/approvals')).body.approvals, 'nothing parked').to.deep.equal([]);
    await client.close();
  });

  it('parks a call that needs approval, and runs the identical call once the person approved, with no session', async () => {
    const { host, door } = await start();
    const { client } = await connectSdkV2(door, 'dee', PINNED);
    const first = (await client.callTool({ name: 'notes_add', arguments: { text: 'stateless' } })) as CallToolResult;
    expect(first.isError).to.equal(true);
    const parked = first.structuredContent as { status: string; approvalId: string };
    expect(parked.status).to.equal('approval-required');
    expect((await host.client.as('dee').json('POST', `/approvals/${parked.approvalId}/decide`, { approve: true })).status).to.equal(200);
    const ran = (await client.callTool({ name: 'notes_add', arguments: { text: 'stateless' } })) as CallToolResult;
    expect(ran.isError ?? false).to.equal(false);
    expect(ran.structuredContent).to.deep.equal({ added: 'stateless', count: 1 });
    await client.close();
  });
});
