import { expect } from 'chai';
import { z } from 'zod';
import { defineTool } from '../../../application/tools/define-tool.js';
import { ada, guardHarness, parkedId } from '../../support/guard-harness.js';

const signal = () => new AbortController().signal;

/** A write tool whose schema trims, defaults and checks a list it is given: what each hook saw is kept. */
function transferTool(accounts: Set<string>) {
  const seen: Record<'preview' | 'resolveRisk' | 'execute', unknown[]> = { preview: [], resolveRisk: [], execute: [] };
  const tool = defineTool({
    name: 'transfer',
    description: 'Move money between accounts',
    input: z.strictObject({
      to: z
        .string()
        .trim()
        .refine(async (account) => accounts.has(account), 'is not an account of yours'),
      cents: z.number().int().positive(),
      memo: z.string().default('(none)'),
    }),
    risk: 'write',
    preview(input) {
      seen.preview.push(input);
      return `Send ${(input.cents / 100).toFixed(2)} to ${input.to} (${input.memo})`;
    },
    resolveRisk(input) {
      seen.resolveRisk.push(input);
      return { risk: input.cents > 100 ? 'write' : 'read', egress: false };
    },
    async execute(input) {
      seen.execute.push(input);
      return { sent: input.cents, to: input.to };
    },
  });
  return { tool, seen };
}

describe('GuardCall with typed tools', () => {
  it('refuses input the schema rejects as invalid, with the issues, running and parking nothing', async () => {
    const { tool, seen } = transferTool(new Set(['acct_1']));
    const h = guardHarness({ tools: [tool] });
    const wrongType = await h.call('transfer', { to: 'acct_1', cents: '500' });
    expect(wrongType.status).to.equal('invalid');
    expect(wrongType.status === 'invalid' && wrongType.issues.join()).to.contain('/cents');
    expect(await h.call('transfer', { to: 'acct_1', cents: 5, extra: 1 })).to.deep.include({ status: 'invalid' });
    expect(await h.call('transfer', { to: 'acct_9', cents: 500 })).to.deep.equal({
      status: 'invalid',
      issues: ['/to is not an account of yours'],
    });
    expect((await h.list.execute({ principal: ada })).approvals).to.have.length(0);
    expect(seen).to.deep.equal({ preview: [], resolveRisk: [], execute: [] });
  });

  it('gives resolveRisk, preview and execute the parsed input, and parks what the model sent', async () => {
    const { tool, seen } = transferTool(new Set(['acct_1']));
    const h = guardHarness({ tools: [tool] });
    const small = await h.call('transfer', { to: ' acct_1 ', cents: 50 });
    expect(small).to.deep.include({ status: 'ran', output: { sent: 50, to: 'acct_1' } });

    const id = parkedId(await h.call('transfer', { to: ' acct_1 ', cents: 500 }));
    const parsed = { to: 'acct_1', cents: 500, memo: '(none)' };
    expect(seen.resolveRisk).to.deep.equal([{ to: 'acct_1', cents: 50, memo: '(none)' }, parsed]);
    expect(seen.preview).to.deep.equal([parsed]);
    const approval = await h.get.execute({ principal: ada, approvalId: id });
    expect(approval.request).to.deep.include({ input: { to: ' acct_1 ', cents: 500 }, preview: 'Send 5.00 to acct_1 ((none))' });
  });

  it('checks an approved call again when it runs: the tool gets it parsed, or the call fails when it no longer passes', async () => {
    const accounts = new Set(['acct_1', 'acct_2']);
    const { tool, seen } = transferTool(accounts);
    const h = guardHarness({ tools: [tool] });
    const first = parkedId(await h.call('transfer', { to: 'acct_1', cents: 500 }));
    const second = parkedId(await h.call('transfer', { to: 'acct_2', cents: 700 }));
    for (const approvalId of [first, second]) await h.decide.execute({ principal: ada, approvalId, approve: true });

    expect(await h.executeApproved.execute({ approvalId: first, principal: ada, signal: signal() })).to.deep.include({
      status: 'ran',
      output: { sent: 500, to: 'acct_1' },
    });
    expect(seen.execute).to.deep.equal([{ to: 'acct_1', cents: 500, memo: '(none)' }]);

    accounts.delete('acct_2');
    const failed = await h.executeApproved.execute({ approvalId: second, principal: ada, signal: signal() });
    expect(failed).to.deep.equal({
      status: 'failed',
      error: "The approved input no longer passes the tool's schema: /to is not an account of yours",
      code: 'validation',
    });
    expect(seen.execute).to.have.length(1);
    expect((await h.get.execute({ principal: ada, approvalId: second })).state).to.equal('executed');
  });
});
