import { expect } from 'chai';
import type { ToolDefinition } from '../../../ports/tool-registry.js';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

/** A read tool whose service is down: every call throws. */
const brokenLookup: ToolDefinition = {
  name: 'orders_lookup',
  description: 'orders_lookup for tests',
  inputSchema: { type: 'object', additionalProperties: true },
  risk: 'read',
  async execute() {
    throw new Error('The orders service answered 503');
  },
};

describe('A run’s outcome reflects its tool calls', () => {
  it('a run whose only tool call failed is not plainly succeeded: its view and the list count the failed call', async () => {
    const h = automationsHarness({ tools: [brokenLookup] });
    const automation = await h.automation({ prompt: '/call orders_lookup {"week":"this"}', tools: ['orders_lookup'] });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    const [runId] = (await h.tick.execute()).runIds;
    await h.runQueued();

    const run = await h.getRun.execute({ principal: ada, runId: runId! });
    expect(run).to.deep.include({ state: 'succeeded', failedCalls: 1 });
    const call = run.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool-orders_lookup');
    expect(call).to.deep.include({ state: 'output-error' });
    const listed = await h.listRuns.execute({ principal: ada, automationId: automation.id });
    expect(listed.runs.map((r) => [r.id, r.failedCalls])).to.deep.equal([[runId, 1]]);
  });

  it('a run whose calls all worked counts none failed', async () => {
    const lookup = countingTool('orders_lookup', 'read');
    const h = automationsHarness({ tools: [lookup.tool] });
    const automation = await h.automation({ prompt: '/call orders_lookup {"week":"this"}', tools: ['orders_lookup'] });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    const [runId] = (await h.tick.execute()).runIds;
    await h.runQueued();

    expect(await h.getRun.execute({ principal: ada, runId: runId! })).to.deep.include({ state: 'succeeded', failedCalls: 0 });
    expect(lookup.calls).to.have.length(1);
  });
});
