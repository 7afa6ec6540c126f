import { expect } from 'chai';
import { z } from 'zod';
import { ProtocolError, type CallToolResult } from '@modelcontextprotocol/client';
import { devHost } from '../support/dev-host-fixture.js';
import { connectSdk, connectSdkV2 } from '../support/door-client.js';
import { defineTool } from '../../application/tools/define-tool.js';
import { demoTools } from '../../composition/dev-host/demo-tools.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import type { WireClient } from '../support/turn-client.js';

type Host = DevHost & { client: WireClient };

function textOf(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

/** A read tool that waits until it is aborted: a call that is still running when its session ends. */
function waitingTool(started: () => void) {
  return defineTool({
    name: 'wait_forever',
    description: 'Waits until the call is cancelled.',
    input: z.strictObject({}),
    risk: 'read',
    async execute(_input, context) {
      started();
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
      return { waited: true };
    },
  });
}

describe('The MCP door with the MCP SDK v2 client (@modelcontextprotocol/client)', function () {
  this.timeout(60_000);
  let host: Host;
  let door: URL;
  const gone = new Set<string>();
  let waiting: Promise<void>;
  let markStarted: () => void;

  before(async () => {
    const dev = developmentOAuth();
    waiting = new Promise<void>((resolve) => (markStarted = resolve));
    host = await devHost({
      porter: {
        tools: [...demoTools(), waitingTool(() => markStarted())],
        oauth: { ...dev, principal: (subject) => (gone.has(subject) ? null : dev.principal(subject)) },
      },
    });
    door = new URL(`${host.url}/api/porter/mcp`);
  });

  after(async () => {
    await host.close();
  });

  it('connects through the OAuth flow and negotiates the 2025 protocol, as the v1 client does', async () => {
    const { client, provider } = await connectSdkV2(door, 'ada');
    expect(provider.returnedIssuer).to.equal(host.url);
    expect(provider.clientInformation()!.client_id).to.match(/^mcpc_/);
    expect(client.getProtocolEra()).to.equal('legacy');
    expect(client.getNegotiatedProtocolVersion()).to.equal('2025-11-25');
    expect(client.getServerVersion()).to.deep.include({ name: 'porter' });
    expect(client.getServerCapabilities()).to.deep.equal({ tools: { listChanged: false } });
    expect(client.getInstructions()).to.contain('approval');
    await client.close();
  });

  it('lists the tools with their annotations and input schemas', async () => {
    const { client } = await connectSdkV2(door, 'bea');
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.notes_list!.annotations).to.deep.include({ readOnlyHint: true, destructiveHint: false });
    expect(byName.notes_clear!.annotations).to.deep.include({ readOnlyHint: false, destructiveHint: true });
    expect(byName.web_fetch!.annotations).to.deep.include({ openWorldHint: true });
    expect(byName.notes_add!.inputSchema).to.deep.include({
      type: 'object',
      properties: { text: { type: 'string', minLength: 1, maxLength: 2000 } },
      required: ['text'],
      additionalProperties: false,
    });
    await client.close();
  });

  it('calls a read tool, and answers bad arguments with a tool error the agent reads', async () => {
    const { client } = await connectSdkV2(door, 'cai');
    const listed = (await client.callTool({ name: 'notes_list', arguments: {} })) as CallToolResult;
    expect(listed.isError ?? false).to.equal(false);
    expect(JSON.parse(textOf(listed))).to.deep.equal({ notes: [] });
    expect(listed.structuredContent).to.deep.equal({ notes: [] });

    const refused = (await client.callTool({ name: 'notes_add', arguments: { text: 5 } })) as CallToolResult;
    expect(refused.isError).to.equal(true);
    expect(textOf(refused)).to.contain('Invalid arguments: ').and.to.contain('/text Invalid input: expected string, received number');
    expect((await host.client.as('cai').json('GET', '/approvals')).body.approvals, 'nothing parked for an invalid call').to.deep.equal([]);
    await client.close();
  });

  it('parks a call that needs approval, and runs it once the person approved', async () => {
    const { client } = await connectSdkV2(door, 'dee');
    const first = (await client.callTool({ name: 'notes_add', arguments: { text: 'from the v2 client' } })) as CallToolResult;
    expect(first.isError).to.equal(true);
    const parked = first.structuredContent as { status: string; approvalId: string; risk: string; preview: string };
    expect(parked).to.deep.include({ status: 'approval-required', risk: 'write', preview: 'Add the note “from the v2 client”' });
    expect(textOf(first)).to.contain(parked.approvalId);

    const person = host.client.as('dee');
    expect((await person.json('GET', `/approvals/${parked.approvalId}`)).body.request).to.deep.include({ tool: 'notes_add', venue: 'mcp' });
    expect((await person.json('POST', `/approvals/${parked.approvalId}/decide`, { approve: true })).status).to.equal(200);

    const ran = (await client.callTool({ name: 'notes_add', arguments: { text: 'from the v2 client' } })) as CallToolResult;
    expect(ran.isError ?? false).to.equal(false);
    expect(ran.structuredContent).to.deep.equal({ added: 'from the v2 client', count: 1 });
    await client.close();
  });

  it('refuses an unknown tool with -32602 and the prefix at most once, for both SDK generations', async () => {
    const { client } = await connectSdkV2(door, 'eli');
    const refusal = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).to.be.instanceOf(ProtocolError);
    expect(refusal).to.include({ code: -32602, message: 'Unknown tool: no_such_tool' });
    await client.close();

    const v1 = (await connectSdk(door, 'eli')).client;
    const v1Refusal = (await v1.callTool({ name: 'no_such_tool', arguments: {} }).catch((error: unknown) => error)) as {
      code: number;
      message: string;
    };
    // The v1 client prefixes what it reads with the code, once.
    expect(v1Refusal).to.include({ code: -32602, message: 'MCP error -32602: Unknown tool: no_such_tool' });
    await v1.close();
  });

  it('negotiates the stateless 2026-07-28 revision when the client probes with server/discover', async () => {
    const { client, transport } = await connectSdkV2(door, 'fay', { versionNegotiation: { mode: 'auto' } });
    expect(client.getProtocolEra()).to.equal('modern');
    expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
    expect(transport.sessionId, 'no session').to.equal(undefined);
    const listed = (await client.callTool({ name: 'notes_list', arguments: {} })) as CallToolResult;
    expect(listed.isError ?? false).to.equal(false);
    await client.close();
  });

  it('answers a call still running when its session is closed, instead of leaving it waiting', async function () {
    this.timeout(15_000);
    const { client, provider } = await connectSdkV2(door, 'gus');
    const pending = client.callTool({ name: 'wait_forever', arguments: {} }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await waiting;
    gone.add('gus');
    try {
      // The next request as gus meets the host's null: every session of gus is closed.
      const refused = await fetch(door, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${provider.tokens()!.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(refused.status).to.equal(401);
      const outcome = await pending;
      expect(outcome, 'the waiting call is answered as a closed session').to.be.instanceOf(Error);
      expect(String((outcome as Error).message)).to.contain('Session not found');
    } finally {
      gone.delete('gus');
      await client.close();
    }
  });
});
