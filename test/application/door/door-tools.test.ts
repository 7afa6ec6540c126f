import { expect } from 'chai';
import type { Principal } from '../../../domain/principal.js';
import type { DoorCaller } from '../../../domain/door/door-caller.js';
import type { ToolDefinition } from '../../../ports/tool-registry.js';
import { hs256Jwt } from '../../../adapters/act-as/hs256-jwt.js';
import { countingTool } from '../../support/guard-harness.js';
import { bearerSubject, recordingHost } from '../../support/recording-host.js';
import { doorHarness } from '../../support/door-harness.js';

const ada: Principal = { subject: 'ada', kind: 'user' };
const SECRET = 'an-hs256-secret-that-is-long-enough-for-door-tests';

function callerFor(principal: Principal, evidence: string | null = 'consent:ada-claude'): DoorCaller {
  return { subject: principal.subject, clientId: 'mcpc_client00001', scope: 'mcp', evidence, principal };
}

describe('Tools through the door (use cases)', () => {
  it('lists every tool with annotations from its risk', async () => {
    const h = doorHarness({
      tools: [
        countingTool('notes_list', 'read').tool,
        countingTool('notes_add', 'write').tool,
        countingTool('notes_clear', 'destructive').tool,
        countingTool('web_fetch', 'read', { egress: true }).tool,
      ],
    });
    const tools = await h.transport.listTools.execute();
    expect(Object.fromEntries(tools.map((t) => [t.name, t.hints]))).to.deep.equal({
      notes_list: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
      notes_add: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      notes_clear: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      web_fetch: { readOnlyHint: true, destructiveHint: false, openWorldHint: true },
    });
  });

  it('runs a read at once, as the connected person', async () => {
    const list = countingTool('notes_list', 'read');
    const h = doorHarness({ tools: [list.tool] });
    const result = await h.transport.callTool.execute({
      caller: callerFor(ada),
      session: 'ses_door0000001',
      tool: 'notes_list',
      input: {},
      signal: new AbortController().signal,
    });
    expect(result).to.deep.equal({ kind: 'ran', output: { done: 'notes_list', input: {} } });
    expect(list.calls).to.have.length(1);
  });

  it('reuses the parked id for an identical destructive retry, runs once on a one-off approval, then asks again; nothing is remembered', async () => {
    const clear = countingTool('notes_clear', 'destructive');
    const h = doorHarness({ tools: [clear.tool] });
    const call = () =>
      h.transport.callTool.execute({
        caller: callerFor(ada),
        session: 'ses_door0000001',
        tool: 'notes_clear',
        input: { all: true },
        signal: new AbortController().signal,
      });
    const first = await call();
    const second = await call();
    if (first.kind !== 'parked' || second.kind !== 'parked') throw new Error('expected both to park');
    expect(second.approvalId).to.equal(first.approvalId);
    expect(second.toolCallId).to.equal(first.toolCallId);
    expect(first.risk).to.equal('destructive');
    await h.guard.decide.execute({ principal: ada, approvalId: first.approvalId, approve: true });
    expect(await call()).to.deep.include({ kind: 'ran' });
    const third = await call();
    expect(third.kind === 'parked' && third.approvalId)
      .to.be.a('string')
      .and.not.equal(first.approvalId);
    expect(clear.calls).to.have.length(1);
    expect((await h.guard.listGrants.execute({ principal: ada })).grants, 'a one-off approval leaves no grant behind').to.have.length(0);
    const approval = await h.guard.get.execute({ principal: ada, approvalId: first.approvalId });
    expect(approval.request).to.deep.include({ venue: 'mcp', presence: 'present', session: 'ses_door0000001' });
  });

  it('keeps grants to the consent evidence: a remembered yes covers this client, not another', async () => {
    const add = countingTool('notes_add', 'write');
    const h = doorHarness({ tools: [add.tool] });
    const call = (evidence: string, session: string) =>
      h.transport.callTool.execute({
        caller: callerFor(ada, evidence),
        session,
        tool: 'notes_add',
        input: { text: 'x' },
        signal: new AbortController().signal,
      });
    const parked = await call('consent:claude', 'ses_door0000001');
    if (parked.kind !== 'parked') throw new Error(parked.kind);
    await h.guard.decide.execute({
      principal: ada,
      approvalId: parked.approvalId,
      approve: true,
      remember: { scope: 'tool', duration: 'standing' },
    });
    expect((await call('consent:claude', 'ses_door0000002')).kind, 'same consent, a later session').to.equal('ran');
    expect((await call('consent:cursor', 'ses_door0000003')).kind, "another client's consent").to.equal('parked');
  });

  it('fails closed with not-implemented, running nothing, when the caller carries no consent evidence', async () => {
    const list = countingTool('notes_list', 'read');
    const h = doorHarness({ tools: [list.tool] });
    const result = await h.transport.callTool.execute({
      caller: callerFor(ada, null),
      session: 'ses_door0000001',
      tool: 'notes_list',
      input: {},
      signal: new AbortController().signal,
    });
    expect(result).to.deep.include({ kind: 'failed', code: 'not-implemented' });
    expect(list.calls).to.have.length(0);
  });

  it('answers unknown-tool for a name nobody registered', async () => {
    const h = doorHarness();
    expect(
      await h.transport.callTool.execute({
        caller: callerFor(ada),
        session: 's',
        tool: 'nope',
        input: {},
        signal: new AbortController().signal,
      }),
    ).to.deep.equal({ kind: 'unknown-tool' });
  });

  it('reaches the host through act-as as the connected person; the inbound bearer never leaves', async () => {
    const host = await recordingHost();
    try {
      const hostTool: ToolDefinition = {
        name: 'host_notes',
        description: 'reads the host',
        inputSchema: { type: 'object' },
        risk: 'read',
        async execute(_input, context) {
          return { status: (await context.hostFetch('/api/notes')).status };
        },
      };
      const h = doorHarness({ tools: [hostTool], actAs: hs256Jwt({ secret: SECRET }), baseUrl: host.url });
      const { tokens } = await h.connect(ada);
      const admission = await h.admit(tokens.accessToken);
      if (!admission.ok) throw new Error(admission.reason);
      const result = await h.transport.callTool.execute({
        caller: admission.caller,
        session: 'ses_door0000001',
        tool: 'host_notes',
        input: {},
        signal: new AbortController().signal,
      });
      expect(result).to.deep.equal({ kind: 'ran', output: { status: 200 } });
      const sent = JSON.stringify(host.requests[0]!.headers);
      expect(sent).to.not.contain(tokens.accessToken);
      expect(await bearerSubject(host.requests[0]!, SECRET)).to.equal('ada');
    } finally {
      await host.close();
    }
  });

  describe('admitting a bearer', () => {
    it('tells a missing token from an invalid one', async () => {
      const h = doorHarness();
      expect(await h.admit(null)).to.deep.equal({ ok: false, reason: 'missing' });
      expect(await h.admit('not-a-token')).to.deep.equal({ ok: false, reason: 'invalid' });
    });

    it('re-resolves oauth.principal(subject) on every request and takes its answer', async () => {
      const h = doorHarness();
      const { tokens } = await h.connect(ada);
      h.setPerson('ada', { subject: 'ada', kind: 'user', name: 'Ada Lovelace' });
      const admission = await h.admit(tokens.accessToken);
      expect(admission.ok && admission.caller.principal.name).to.equal('Ada Lovelace');
    });

    it('closes every live session of a subject the host no longer resolves, and refuses the request', async () => {
      const h = doorHarness();
      const { tokens } = await h.connect(ada);
      const closed: string[] = [];
      const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } };
      const open = (id: string, subject: string) =>
        h.sessions.open({ id, subject, clientId: 'mcpc_x', initialize }, { id, streaming: false, close: async () => void closed.push(id) });
      await open('ses_a', 'ada');
      await open('ses_b', 'ada');
      await open('ses_c', 'bob');
      h.setPerson('ada', null);
      expect(await h.admit(tokens.accessToken)).to.deep.equal({ ok: false, reason: 'gone' });
      expect(closed.sort()).to.deep.equal(['ses_a', 'ses_b']);
      expect(h.sessions.size).to.equal(1);
      h.setPerson('ada', { subject: 'ada', kind: 'user' });
      expect((await h.admit(tokens.accessToken)).ok, 'the token itself was not revoked').to.equal(true);
    });

    it("keeps the fields it knows from the host's own user object (a null name is absent) and ignores the rest", async () => {
      const h = doorHarness();
      const { tokens } = await h.connect(ada);
      h.setPerson('ada', { subject: 'ada', name: 'Ada', email: null, role: 'admin' } as unknown as Principal);
      const admission = await h.admit(tokens.accessToken);
      expect(admission.ok && admission.caller.principal).to.deep.equal({ subject: 'ada', kind: 'user', name: 'Ada' });
    });

    it("reports an answer that is no principal as the host's bug, naming the problem, and closes no session", async () => {
      const h = doorHarness();
      const { tokens } = await h.connect(ada);
      const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } };
      await h.sessions.open(
        { id: 'ses_a', subject: 'ada', clientId: 'mcpc_x', initialize },
        { id: 'ses_a', streaming: false, close: async () => {} },
      );
      h.setPerson('ada', { subject: 42 } as unknown as Principal);
      const error = await h.admit(tokens.accessToken).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message).to.equal(
        "The host's oauth.principal(subject) returned an invalid principal: subject must be a non-empty string, not a number",
      );
      expect(h.sessions.size, 'a host bug is not the person leaving').to.equal(1);
    });

    it('counts a reserved, org or different-subject answer from the host as gone', async () => {
      for (const answer of [
        { subject: 'porter:webhook:x', kind: 'user' },
        { subject: 'ada', kind: 'org' },
        { subject: 'eve', kind: 'user' },
      ]) {
        const h = doorHarness();
        const { tokens } = await h.connect(ada);
        h.setPerson('ada', answer);
        expect(await h.admit(tokens.accessToken)).to.deep.equal({ ok: false, reason: 'gone' });
      }
    });
  });
});
