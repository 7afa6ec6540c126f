import { expect } from 'chai';
import { ada, bob, countingTool, expectAdasOnlyGrant, guardHarness, parkedId } from '../../support/guard-harness.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { codeOf } from '../../support/outcomes.js';
import type { Remember } from '../../../domain/guard/grant.js';

describe('GuardCall: the decision pipeline', () => {
  it('runs a read-class tool without asking', async () => {
    const list = countingTool('notes_list', 'read');
    const h = guardHarness({ tools: [list.tool] });
    const result = await h.call('notes_list', {});
    expect(result).to.deep.include({ status: 'ran', because: 'read-class' });
    expect(list.calls).to.have.length(1);
  });

  for (const [name, risk, egress] of [
    ['notes_add', 'write', false],
    ['notes_clear', 'destructive', false],
    ['web_fetch', 'read', true],
  ] as const) {
    it(`parks ${risk}${egress ? ' + egress' : ''} calls as approvals and runs nothing`, async () => {
      const tool = countingTool(name, risk, { egress });
      const h = guardHarness({ tools: [tool.tool] });
      const result = await h.call(name, { text: 'x' });
      expect(result.status).to.equal('parked');
      expect(tool.calls).to.have.length(0);
      const listed = await h.list.execute({ principal: ada });
      expect(listed.approvals.map((a) => a.id)).to.deep.equal([parkedId(result)]);
      expect(listed.approvals[0]!.request).to.deep.include({ tool: name, risk, egress, venue: 'chat', input: { text: 'x' } });
    });
  }

  it('refuses an unknown tool and an input that fails the tool schema, running nothing', async () => {
    const strict = countingTool('notes_add', 'write');
    const h = guardHarness({
      tools: [
        {
          ...strict.tool,
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
        },
      ],
    });
    expect((await h.call('nope', {})).status).to.equal('invalid');
    const bad = await h.call('notes_add', { text: 5 });
    expect(bad.status).to.equal('invalid');
    expect(bad.status === 'invalid' && bad.issues.join()).to.contain('/text');
    expect((await h.list.execute({ principal: ada })).approvals).to.have.length(0);
  });

  it('resolves risk at call time when the tool says how', async () => {
    const edit = countingTool('porter_apps_edit', 'write');
    const h = guardHarness({
      tools: [
        { ...edit.tool, resolveRisk: (input) => ({ risk: (input as { server?: boolean }).server ? 'write' : 'read', egress: false }) },
      ],
    });
    expect((await h.call('porter_apps_edit', { server: false })).status).to.equal('ran');
    expect((await h.call('porter_apps_edit', { server: true })).status).to.equal('parked');
  });

  it('reports a tool that throws as a failed call', async () => {
    const h = guardHarness({
      tools: [
        {
          name: 'boom',
          description: 'x',
          inputSchema: { type: 'object' },
          risk: 'read',
          execute: async () => Promise.reject(new Error('kaput')),
        },
      ],
    });
    expect(await h.call('boom', {})).to.deep.equal({ status: 'failed', error: 'kaput' });
  });

  describe('policy rules', () => {
    it('lets a run rule run a write tool, matched by glob', async () => {
      const add = countingTool('notes_add', 'write');
      const h = guardHarness({ tools: [add.tool], policy: [{ tool: 'notes_*', action: 'run' }] });
      expect(await h.call('notes_add', {})).to.deep.include({ status: 'ran', because: 'policy' });
    });

    it('makes an ask rule park a read tool for one venue only', async () => {
      const list = countingTool('notes_list', 'read');
      const h = guardHarness({ tools: [list.tool], policy: [{ risk: 'read', venue: 'automation', action: 'ask' }] });
      expect((await h.call('notes_list', {})).status).to.equal('ran');
      expect((await h.call('notes_list', {}, { venue: 'automation', presence: 'away', session: 'run_1', runId: 'run_1' })).status).to.equal(
        'parked',
      );
    });

    it('blocks on a block rule even when a grant covers the call, and audits it', async () => {
      const add = countingTool('notes_add', 'write');
      const h = guardHarness({ tools: [add.tool], policy: [{ tool: 'notes_add', presence: 'away', action: 'block' }] });
      const id = parkedId(await h.call('notes_add', {}));
      await h.decide.execute({ principal: ada, approvalId: id, approve: true, remember: { scope: 'tool', duration: 'standing' } });
      expect((await h.call('notes_add', {})).status).to.equal('ran');
      expect((await h.call('notes_add', {}, { presence: 'away', venue: 'automation', session: 'run_1' })).status).to.equal('blocked');
      expect((await h.auditLog.list('ada', {})).events.map((e) => e.outcome)).to.include('blocked-by-policy');
      expect(add.calls).to.have.length(1);
    });
  });

  describe('grants', () => {
    /** A `notes_add` call (with `input`) parked, then approved with `remember`. */
    async function approvedRemembering(remember: Remember, input: object = {}) {
      const add = countingTool('notes_add', 'write');
      const h = guardHarness({ tools: [add.tool] });
      const id = parkedId(await h.call('notes_add', input));
      await h.decide.execute({ principal: ada, approvalId: id, approve: true, remember });
      return { h, id };
    }

    it('remembers a tool-scope standing grant: later calls with other inputs run', async () => {
      const { h, id } = await approvedRemembering({ scope: 'tool', duration: 'standing' }, { text: 'a' });
      expect(await h.call('notes_add', { text: 'b' }, { session: 'thr_other', threadId: 'thr_other' })).to.deep.include({
        status: 'ran',
        because: 'grant',
      });
      await expectAdasOnlyGrant(h, {
        subject: 'ada',
        tool: 'notes_add',
        scope: 'tool',
        duration: 'standing',
        origin: { kind: 'approval', approvalId: id },
      });
    });

    it('keeps an exact grant to the same input, whatever its key order', async () => {
      const { h } = await approvedRemembering({ scope: 'exact', duration: 'standing' }, { text: 'a', tags: ['x'] });
      expect((await h.call('notes_add', { tags: ['x'], text: 'a' })).status).to.equal('ran');
      expect((await h.call('notes_add', { text: 'b', tags: ['x'] })).status).to.equal('parked');
    });

    it('keeps a session grant to its session, and away calls use standing grants only', async () => {
      const { h } = await approvedRemembering({ scope: 'tool', duration: 'session' });
      expect((await h.call('notes_add', {})).status).to.equal('ran');
      expect((await h.call('notes_add', {}, { session: 'thr_other', threadId: 'thr_other' })).status).to.equal('parked');
      expect((await h.call('notes_add', {}, { presence: 'away' })).status).to.equal('parked');
    });

    it("never lets one subject's grant cover another subject's call", async () => {
      const { h } = await approvedRemembering({ scope: 'tool', duration: 'standing' });
      expect((await h.call('notes_add', {}, { principal: bob })).status).to.equal('parked');
    });

    it('asks again once the grant is revoked, and revoking twice is harmless', async () => {
      const { h } = await approvedRemembering({ scope: 'tool', duration: 'standing' });
      const [grant] = (await h.listGrants.execute({ principal: ada })).grants;
      await h.revoke.execute({ principal: ada, grantId: grant!.id });
      await h.revoke.execute({ principal: ada, grantId: grant!.id });
      expect((await h.call('notes_add', {})).status).to.equal('parked');
      expect((await h.listGrants.execute({ principal: ada })).grants).to.have.length(0);
    });

    it("answers not-found for revoking someone else's grant", async () => {
      const { h } = await approvedRemembering({ scope: 'tool', duration: 'standing' });
      const [grant] = (await h.listGrants.execute({ principal: ada })).grants;
      expect(await codeOf(h.revoke.execute({ principal: bob, grantId: grant!.id }))).to.equal('not-found');
    });
  });

  describe('door retries', () => {
    it('reuses the parked id for an identical call in the same session, runs once on approval, then asks again', async () => {
      const clear = countingTool('notes_clear', 'destructive');
      const h = guardHarness({ tools: [clear.tool] });
      const door = { venue: 'mcp' as const, session: 'ses_door1', reuseParked: true, evidence: 'consent-1' };
      const first = await h.call('notes_clear', { all: true }, door);
      const second = await h.call('notes_clear', { all: true }, door);
      expect(parkedId(second)).to.equal(parkedId(first));
      expect(second.status === 'parked' && second.parked.toolCallId).to.equal(first.status === 'parked' && first.parked.toolCallId);
      await h.decide.execute({ principal: ada, approvalId: parkedId(first), approve: true });
      const retry = await h.call('notes_clear', { all: true }, door);
      expect(retry).to.deep.include({ status: 'ran', because: 'approval' });
      const third = await h.call('notes_clear', { all: true }, door);
      expect(third.status).to.equal('parked');
      expect(parkedId(third)).to.not.equal(parkedId(first));
      expect(clear.calls).to.have.length(1);
    });

    it('answers every racing identical retry with the one execution, parking nothing new', async () => {
      const clear = countingTool('notes_clear', 'destructive');
      const h = guardHarness({ tools: [clear.tool] });
      const door = { venue: 'mcp' as const, session: 'ses_door1', reuseParked: true };
      const id = parkedId(await h.call('notes_clear', { all: true }, door));
      await h.decide.execute({ principal: ada, approvalId: id, approve: true });
      const retries = await Promise.all(Array.from({ length: 10 }, () => h.call('notes_clear', { all: true }, door)));
      expect(clear.calls).to.have.length(1);
      expect(retries.filter((r) => r.status === 'parked')).to.have.length(0);
      expect(retries.filter((r) => r.status === 'ran')).to.have.length.at.least(1);
      expect((await h.list.execute({ principal: ada })).approvals).to.have.length(0);
    });

    it('answers a retry that names the approval it answers with that execution, even after it ran', async () => {
      const clear = countingTool('notes_clear', 'destructive');
      const h = guardHarness({ tools: [clear.tool] });
      const door = { venue: 'mcp' as const, session: 'ses_door1', reuseParked: true };
      const id = parkedId(await h.call('notes_clear', { all: true }, door));
      await h.decide.execute({ principal: ada, approvalId: id, approve: true });
      expect(await h.call('notes_clear', { all: true }, door)).to.deep.include({ status: 'ran' });
      const late = await h.call('notes_clear', { all: true }, { ...door, continues: id });
      expect(late).to.deep.include({ status: 'ran', because: 'approval' });
      expect(clear.calls).to.have.length(1);
      // Naming it from another session, or for another input, reads nothing: that call parks as its own.
      expect((await h.call('notes_clear', { all: true }, { ...door, session: 'ses_door2', continues: id })).status).to.equal('parked');
      expect((await h.call('notes_clear', { all: false }, { ...door, continues: id })).status).to.equal('parked');
      expect(clear.calls).to.have.length(1);
    });

    it('does not reuse across door sessions or for a different input', async () => {
      const clear = countingTool('notes_clear', 'destructive');
      const h = guardHarness({ tools: [clear.tool] });
      const first = parkedId(await h.call('notes_clear', { all: true }, { venue: 'mcp', session: 'ses_a', reuseParked: true }));
      expect(parkedId(await h.call('notes_clear', { all: true }, { venue: 'mcp', session: 'ses_b', reuseParked: true }))).to.not.equal(
        first,
      );
      expect(parkedId(await h.call('notes_clear', { all: false }, { venue: 'mcp', session: 'ses_a', reuseParked: true }))).to.not.equal(
        first,
      );
    });
  });

  it('keeps approvals of a store without atomic claims from ever being decided (fail closed)', async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool], store: new MemoryStore({ clock: new ManualClock(), atomic: false }) });
    const id = parkedId(await h.call('notes_add', {}));
    expect(await codeOf(h.decide.execute({ principal: ada, approvalId: id, approve: true }))).to.equal('unavailable');
    expect(await h.executeApproved.execute({ approvalId: id, principal: ada, signal: new AbortController().signal })).to.equal(null);
    expect(add.calls).to.have.length(0);
  });
});
