import { expect } from 'chai';
import { ada, bob } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';
import { automationTools, RUN_AUTOMATION_TOOL } from '../../../application/automations/automation-tools.js';
import { NotFound } from '../../../domain/errors.js';
import type { AutomationUseCases } from '../../../ports/use-cases/automations.js';
import type { RunUseCases } from '../../../ports/use-cases/runs.js';

/** The harness with Porter's automation tools registered, running through its own use cases. */
function withRunTool() {
  const late: { h?: ReturnType<typeof automationsHarness> } = {};
  const tools = automationTools({
    automations: () =>
      ({ listAutomations: { execute: async () => ({ automations: [], nextCursor: null }) } }) as unknown as AutomationUseCases,
    runs: () => ({ runAutomationNow: late.h!.runNow }) as unknown as RunUseCases,
  });
  late.h = automationsHarness({ tools });
  return late.h;
}

describe('porter_automations_run: a run of the owner’s automation, now', () => {
  it('asks the owner, then starts a real run of the automation, started by them and named by where they asked', async () => {
    const h = withRunTool();
    const automation = await h.automation({ prompt: 'hello' });
    const parked = await h.call(RUN_AUTOMATION_TOOL, { automationId: automation.id });
    expect(parked.status, 'starting a run is a write: the owner approves it').to.equal('parked');
    expect(await h.runs.inState('queued')).to.have.length(0);

    if (parked.status !== 'parked') throw new Error('unreachable');
    await h.decide.execute({
      principal: ada,
      approvalId: parked.parked.approvalId,
      approve: true,
      remember: { scope: 'tool', duration: 'session' },
    });
    const started = await h.call(RUN_AUTOMATION_TOOL, { automationId: automation.id });
    expect(started.status).to.equal('ran');
    const [queued] = await h.runs.inState('queued');
    expect(started).to.deep.include({
      output: { runId: queued!.run.id, automationId: automation.id, state: 'queued', createdAt: queued!.run.toPrimitives().createdAt },
    });
    expect(queued!.run.toPrimitives()).to.deep.include({
      automationId: automation.id,
      startedBy: 'ada',
      cause: { kind: 'run-now', venue: 'chat' },
      dryRun: false,
      prompt: 'hello',
    });
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: queued!.run.id })).state).to.equal('succeeded');
  });

  it("is not found for someone else's automation", async () => {
    const h = withRunTool();
    const automation = await h.automation({ prompt: 'hello' });
    let refused: unknown;
    await h.runNow.execute({ principal: bob, automationId: automation.id, venue: 'mcp' }).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(NotFound);
    expect(await h.runs.inState('queued')).to.have.length(0);
  });

  it('cannot be called by a run: an automation never starts another', async () => {
    const h = withRunTool();
    const other = await h.automation({ name: 'other', prompt: 'hello' });
    const starter = await h.automation({
      name: 'starter',
      prompt: `/call ${RUN_AUTOMATION_TOOL} {"automationId":"${other.id}"}`,
      tools: [RUN_AUTOMATION_TOOL],
    });
    await h.armApproved(starter.id);
    const [runId] = (await h.tick.execute()).runIds;
    await h.runQueued();
    const run = await h.getRun.execute({ principal: ada, runId: runId! });
    expect(JSON.stringify(run.messages)).to.contain('cannot be run from another run');
    const { runs } = await h.listRuns.execute({ principal: ada, automationId: other.id });
    expect(runs, 'no run of the other automation').to.deep.equal([]);
  });
});
