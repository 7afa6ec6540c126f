import { expect } from 'chai';
import { LimitReached } from '../../../domain/errors.js';
import { ada } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';
import { CountedModel } from '../../support/counted-model.js';
import { countingTool } from '../../support/guard-harness.js';
import { eventually } from '../../support/eventually.js';

const refusalOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: unknown) => error as LimitReached,
  );

/** Ada's automation (not armed: a dry run needs no arming), over a model that counts the steps it is asked for. */
async function adasAutomation(limits: Parameters<typeof automationsHarness>[0]['limits']) {
  const model = new CountedModel();
  const h = automationsHarness({ tools: [], model, limits });
  const automation = await h.automation({ prompt: 'say hello' });
  return { h, model, automation };
}

describe('Runs started by hand pay the budgets they spend', () => {
  it('a dry run pays one of `runs`: the next one is refused with Retry-After before anything is kept, and the model is not called', async () => {
    const { h, model, automation } = await adasAutomation({ runs: { max: 1, windowSeconds: 3600 } });
    expect(await h.dryRun.execute({ principal: ada, automationId: automation.id })).to.deep.include({ state: 'succeeded' });
    const steps = model.steps;
    expect(steps).to.be.greaterThan(0);

    const refused = await refusalOf(h.dryRun.execute({ principal: ada, automationId: automation.id }));
    expect(refused).to.be.instanceOf(LimitReached);
    expect(refused!.details).to.deep.include({ budget: 'runs' });
    expect(refused!.retryAfterSeconds).to.be.within(3500, 3660);
    expect(model.steps, 'the model was not called').to.equal(steps);
    expect((await h.listRuns.execute({ principal: ada })).runs, 'no run was kept').to.have.length(1);
    expect((await h.meter!.figures(ada.subject)).runs).to.deep.include({ used: 1, remaining: 0 });
  });

  it("a dry run's rerun is a dry run and pays one of `runs` when asked: refused once they are spent", async () => {
    const { h, model, automation } = await adasAutomation({ runs: { max: 2, windowSeconds: 3600 } });
    const dry = await h.dryRun.execute({ principal: ada, automationId: automation.id });
    const again = await h.rerun.execute({ principal: ada, runId: dry.id });
    expect(again).to.deep.include({ state: 'queued', dryRun: true });
    expect((await h.meter!.figures(ada.subject)).runs, 'paid when asked for').to.deep.include({ used: 2 });
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: again.id })).state).to.equal('succeeded');
    expect((await h.meter!.figures(ada.subject)).runs, 'and not again when it ran').to.deep.include({ used: 2 });

    const steps = model.steps;
    const refused = await refusalOf(h.rerun.execute({ principal: ada, runId: dry.id }));
    expect(refused?.details).to.deep.include({ budget: 'runs' });
    expect(refused!.retryAfterSeconds).to.be.a('number');
    await h.runQueued();
    expect(model.steps, 'the model was not called').to.equal(steps);
    expect((await h.listRuns.execute({ principal: ada })).runs).to.have.length(2);
  });

  it("a real run's rerun is refused when `runs` are spent; one asked for while a unit is left pays when it begins", async () => {
    const { h, model, automation } = await adasAutomation({ runs: { max: 1, windowSeconds: 3600 } });
    await h.armApproved(automation.id);
    const [first] = (await h.tick.execute()).runIds;
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: first! })).state).to.equal('succeeded');
    const steps = model.steps;

    const refused = await refusalOf(h.rerun.execute({ principal: ada, runId: first! }));
    expect(refused?.details).to.deep.include({ budget: 'runs' });
    await h.runQueued();
    expect(model.steps, 'the model was not called').to.equal(steps);
    expect((await h.listRuns.execute({ principal: ada })).runs).to.have.length(1);
  });

  it('a dry run or a rerun is refused up front when no tokens are left, before the model is asked', async () => {
    const { h, model, automation } = await adasAutomation({ tokens: { max: 3, windowSeconds: 600 } });
    // "echo: say hello" and the prompt's words: more than three tokens in one step.
    const dry = await h.dryRun.execute({ principal: ada, automationId: automation.id });
    expect((await h.meter!.figures(ada.subject)).tokens!.remaining).to.equal(0);
    const steps = model.steps;
    for (const attempt of [
      h.dryRun.execute({ principal: ada, automationId: automation.id }),
      h.rerun.execute({ principal: ada, runId: dry.id }),
    ]) {
      const refused = await refusalOf(attempt);
      expect(refused?.details).to.deep.include({ budget: 'tokens' });
    }
    await h.runQueued();
    expect(model.steps).to.equal(steps);
    expect((await h.listRuns.execute({ principal: ada })).runs).to.have.length(1);
  });
});

describe("Dry runs count toward the owner's turns in flight", () => {
  it('a dry run past the bound is refused with 429 before the model is asked; a rerun of a dry run past it ends failed without asking', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const wait = countingTool('wait', 'read', { gate });
    const model = new CountedModel();
    const h = automationsHarness({ tools: [wait.tool], model, maxTurnsInFlight: 1 });
    const automation = await h.automation({ prompt: '/call wait {}', tools: ['wait'] });
    const first = h.dryRun.execute({ principal: ada, automationId: automation.id });
    expect(await eventually(() => wait.calls.length === 1, 2_000), 'the first dry run is in flight').to.equal(true);
    const steps = model.steps;

    const refused = await refusalOf(h.dryRun.execute({ principal: ada, automationId: automation.id }));
    expect(refused?.details).to.deep.include({ budget: 'turnsInFlight' });
    expect(refused!.retryAfterSeconds).to.be.within(1, 15);
    expect(model.steps, 'the model was not asked').to.equal(steps);

    // A dry run's rerun runs in the background: past the bound it ends failed, saying so.
    const again = await h.rerun.execute({ principal: ada, runId: (await h.listRuns.execute({ principal: ada })).runs[0]!.id });
    await h.runQueued();
    const ended = await h.getRun.execute({ principal: ada, runId: again.id });
    expect(ended.state).to.equal('failed');
    expect(ended.error).to.match(/At most 1 of your turns run at once/);
    expect(model.steps).to.equal(steps);

    open();
    expect((await first).state).to.equal('succeeded');
    expect((await h.dryRun.execute({ principal: ada, automationId: automation.id })).state, 'the place is free again').to.equal(
      'succeeded',
    );
  });
});
