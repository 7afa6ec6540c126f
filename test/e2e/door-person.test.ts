import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { connectSdk, connectSdkV2 } from '../support/door-client.js';
import { devHost, devHostPerTest } from '../support/dev-host-fixture.js';

const PINNED = { versionNegotiation: { mode: { pin: '2026-07-28' } } };

interface Parked {
  status: string;
  approvalId: string;
  approvalUrl?: string;
}

function textOf(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

/** A door tool call as either SDK client makes it. */
type CallTool = (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>;

describe('The MCP door sends the person to approve, for a client without elicitation', function () {
  this.timeout(60_000);
  const start = devHostPerTest();

  /**
   * The call parks, says where the person approves it and to retry it; the identical retry before
   * the approval reuses it; after the approval, two racing retries run the action exactly once.
   */
  async function approveThenRetry(callTool: CallTool, host: Awaited<ReturnType<typeof start>>['host'], person: string) {
    const call = { name: 'notes_add', arguments: { text: 'from the door' } };
    const first = (await callTool(call)) as CallToolResult;
    expect(first.isError).to.equal(true);
    const parked = first.structuredContent as unknown as Parked;
    const approvals = `${host.url}/#/approvals`;
    expect(parked).to.deep.include({ status: 'approval-required', approvalUrl: approvals });
    expect(textOf(first))
      .to.contain('the person must approve')
      .and.to.contain(`open ${approvals} and approve it`)
      .and.to.contain('call this tool again with exactly the same arguments');

    const again = (await callTool(call)) as CallToolResult;
    expect((again.structuredContent as unknown as Parked).approvalId, 'the identical retry reuses the parked approval').to.equal(
      parked.approvalId,
    );
    const wire = host.client.as(person);
    expect((await wire.json('GET', '/approvals')).body.approvals).to.have.length(1);
    expect((await wire.json('POST', `/approvals/${parked.approvalId}/decide`, { approve: true })).status).to.equal(200);

    const retries = (await Promise.all([callTool(call), callTool(call)])) as CallToolResult[];
    const ran = retries.filter((retry) => !retry.isError);
    expect(ran.length, retries.map(textOf).join(' | ')).to.be.at.least(1);
    for (const retry of ran) expect(retry.structuredContent).to.deep.equal({ added: 'from the door', count: 1 });
    // The other racing retry read the outcome, was told the call is running, or (arriving after it
    // ran) is a new action the person is asked about: never a second run of the approved one.
    for (const retry of retries.filter((r) => r.isError)) {
      const fresh = retry.structuredContent as unknown as Parked | undefined;
      if (fresh?.status === 'approval-required') expect(fresh.approvalId).to.not.equal(parked.approvalId);
      else expect(textOf(retry)).to.contain('already running');
    }
    const listed = (await callTool({ name: 'notes_list', arguments: {} })) as CallToolResult;
    expect(listed.structuredContent, 'the approved action ran exactly once').to.deep.equal({ notes: ['from the door'] });
  }

  it('on a 2025-11-25 session (the v1 SDK client)', async () => {
    const { host, door } = await start();
    const { client } = await connectSdk(door, 'ada');
    await approveThenRetry((params) => client.callTool(params), host, 'ada');
    await client.close();
  });

  it('on the stateless 2026-07-28 revision (the v2 SDK client)', async () => {
    const { host, door } = await start();
    const { client } = await connectSdkV2(door, 'bea', PINNED);
    await approveThenRetry((params) => client.callTool(params), host, 'bea');
    await client.close();
  });

  it('sends the person to the Connections page when a tool needs an account they have not connected', async () => {
    const host = await devHost({ demoBroker: true });
    try {
      const { client } = await connectSdkV2(new URL(`${host.url}${host.porter.mount}/mcp`), 'dan', PINNED);
      const result = (await client.callTool({ name: 'calendar_events', arguments: {} })) as CallToolResult;
      expect(result.isError).to.equal(true);
      expect(result.structuredContent).to.deep.equal({ status: 'connection-required', connectUrl: `${host.url}/#/connections` });
      expect(textOf(result)).to.contain(`at ${host.url}/#/connections`).and.to.contain('call this tool again with the same arguments');
      await client.close();
    } finally {
      await host.close();
    }
  });

  it('names the chrome where the host serves it (door.chromeUrl)', async () => {
    const { door } = await start({ door: { chromeUrl: 'https://app.example.com/assistant' } });
    const { client } = await connectSdk(door, 'cai');
    const first = (await client.callTool({ name: 'notes_clear', arguments: {} })) as CallToolResult;
    expect(first.structuredContent).to.deep.include({ approvalUrl: 'https://app.example.com/assistant#/approvals' });
    expect(textOf(first)).to.contain('open https://app.example.com/assistant#/approvals and approve it');
    await client.close();
  });
});

describe('The MCP door asks the person through URL elicitation, for a client that declares it', function () {
  this.timeout(60_000);
  const start = devHostPerTest();
  const call = { name: 'notes_add', arguments: { text: 'asked by URL' } };

  it('on 2026-07-28: input_required opens the Approvals page, and the retries after the approval run the action once', async () => {
    const { host, door } = await start();
    const { client } = await connectSdkV2(door, 'eve', { ...PINNED, capabilities: { elicitation: { url: {} } } });
    const person = host.client.as('eve');
    const opened: Array<{ mode?: string; url?: string; message: string }> = [];
    let racing: Promise<unknown> | undefined;
    client.setRequestHandler('elicitation/create', async (request) => {
      opened.push(request.params as (typeof opened)[number]);
      // The person opens the page and approves the one waiting there, as the chrome's Approve button does.
      const [waiting] = (await person.json('GET', '/approvals')).body.approvals as Array<{ id: string }>;
      expect((await person.json('POST', `/approvals/${waiting!.id}/decide`, { approve: true })).status).to.equal(200);
      // A second retry of the same call, answering the same approval, races the client's own.
      // (`inputResponses` is the 2026-07-28 retry's own param, which `callTool`'s type does not list.)
      const retry = { ...call, inputResponses: { [`porter-approval:${waiting!.id}`]: { action: 'accept' } } };
      racing = client.callTool(retry as typeof call);
      return { action: 'accept' };
    });

    const result = (await client.callTool(call)) as CallToolResult;
    const raced = (await racing) as CallToolResult;
    expect(opened).to.have.length(1);
    expect(opened[0]).to.deep.include({ mode: 'url', url: `${host.url}/#/approvals` });
    expect(opened[0]!.message).to.contain('Add the note “asked by URL”');
    for (const answer of [result, raced]) {
      if (answer.isError) expect(textOf(answer)).to.contain('already running');
      else expect(answer.structuredContent).to.deep.equal({ added: 'asked by URL', count: 1 });
    }
    expect(result.isError ?? false, 'the client’s own retry ran or read the outcome').to.equal(false);
    const listed = (await client.callTool({ name: 'notes_list', arguments: {} })) as CallToolResult;
    expect(listed.structuredContent, 'the approved action ran exactly once').to.deep.equal({ notes: ['asked by URL'] });
    await client.close();
  });

  it('on 2026-07-28: a retry while the approval still waits reads where to approve, instead of asking again', async () => {
    const { host, door } = await start();
    const { client } = await connectSdkV2(door, 'gil', { ...PINNED, capabilities: { elicitation: { url: {} } } });
    let asked = 0;
    client.setRequestHandler('elicitation/create', async () => {
      asked++;
      return { action: 'accept' };
    });
    const result = (await client.callTool(call)) as CallToolResult;
    expect(asked).to.equal(1);
    expect(result.isError).to.equal(true);
    expect(result.structuredContent).to.deep.include({ status: 'approval-required', approvalUrl: `${host.url}/#/approvals` });
    await client.close();
  });

  it('on 2026-07-28: a tool whose account is not connected opens the Connections page, once', async () => {
    const host = await devHost({ demoBroker: true });
    try {
      const { client } = await connectSdkV2(new URL(`${host.url}${host.porter.mount}/mcp`), 'hal', {
        ...PINNED,
        capabilities: { elicitation: { url: {} } },
      });
      const opened: Array<{ mode?: string; url?: string; message: string }> = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        opened.push(request.params as (typeof opened)[number]);
        return { action: 'accept' };
      });
      const result = (await client.callTool({ name: 'calendar_events', arguments: {} })) as CallToolResult;
      expect(opened).to.have.length(1);
      expect(opened[0]).to.deep.include({ mode: 'url', url: `${host.url}/#/connections` });
      expect(opened[0]!.message).to.contain('which is not connected');
      // Still not connected when the client retried: the plain answer, saying where, not a second ask.
      expect(result.structuredContent).to.deep.equal({ status: 'connection-required', connectUrl: `${host.url}/#/connections` });
      await client.close();
    } finally {
      await host.close();
    }
  });

  it('on a 2025-11-25 session: the URL-elicitation-required error (-32042) names the page, and racing retries after the approval run the action once', async () => {
    const { host, door } = await start();
    const { client } = await connectSdk(door, 'fay', undefined, { capabilities: { elicitation: { url: {} } } });
    const refused = await client.callTool(call).then(
      () => null,
      (error: unknown) => error as { code: number; data: { elicitations: Array<{ mode: string; url: string; elicitationId: string }> } },
    );
    expect(refused?.code).to.equal(-32042);
    const [elicitation] = refused!.data.elicitations;
    expect(elicitation).to.deep.include({ mode: 'url', url: `${host.url}/#/approvals` });

    const person = host.client.as('fay');
    const [waiting] = (await person.json('GET', '/approvals')).body.approvals as Array<{ id: string }>;
    expect(elicitation!.elicitationId).to.equal(`porter-approval:${waiting!.id}`);
    expect((await person.json('POST', `/approvals/${waiting!.id}/decide`, { approve: true })).status).to.equal(200);

    const retries = await Promise.allSettled([client.callTool(call), client.callTool(call)]);
    const ran = retries.flatMap((retry) => (retry.status === 'fulfilled' && !(retry.value as CallToolResult).isError ? [retry.value] : []));
    expect(ran.length, JSON.stringify(retries)).to.be.at.least(1);
    for (const answer of ran) expect((answer as CallToolResult).structuredContent).to.deep.equal({ added: 'asked by URL', count: 1 });
    const listed = (await client.callTool({ name: 'notes_list', arguments: {} })) as CallToolResult;
    expect(listed.structuredContent, 'the approved action ran exactly once').to.deep.equal({ notes: ['asked by URL'] });
    await client.close();
  });
});
