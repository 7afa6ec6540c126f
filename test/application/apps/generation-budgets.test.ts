import { expect } from 'chai';
import { LimitReached } from '../../../domain/errors.js';
import type { Limits } from '../../../domain/usage/budget.js';
import { FilePinCatalog } from '../../../adapters/apps/file-pin-catalog.js';
import { appsHarness } from '../../support/apps-harness.js';
import { ada } from '../../support/guard-harness.js';
import { hostComponents } from '../../support/apps-pins.js';
import { CountedGenerator } from '../../support/counted-generator.js';
import { eventually } from '../../support/eventually.js';

const refusalOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: unknown) => error as LimitReached,
  );

describe('App generation pays the budgets it spends: creates, edits, seeds and rebases', () => {
  let host: Awaited<ReturnType<typeof hostComponents>>;
  beforeEach(async () => {
    host = await hostComponents();
  });
  afterEach(async () => {
    await host.remove();
  });

  const harness = (limits: Limits, maxTurnsInFlight?: number) => {
    const generator = new CountedGenerator();
    const h = appsHarness({
      generator,
      limits,
      catalog: new FilePinCatalog({ manifestFile: host.manifestFile }),
      ...(maxTurnsInFlight !== undefined ? { maxTurnsInFlight } : {}),
    });
    return { h, generator };
  };

  it('a seed with an instruction pays one of `appGenerations`: refused (429, not 500) once they are spent, before the model is asked', async () => {
    const { h, generator } = harness({ appGenerations: { max: 1, windowSeconds: 3600 } });
    await h.apps.seedApp.execute({ principal: ada, slot: 'pricing', instruction: 'add a note about VAT' });
    expect((await h.meter!.figures(ada.subject)).appGenerations).to.deep.include({ used: 1, remaining: 0 });
    const asked = generator.asked;

    const refused = await refusalOf(h.apps.seedApp.execute({ principal: ada, slot: 'pricing', instruction: 'and another note' }));
    expect(refused).to.be.instanceOf(LimitReached);
    expect(refused!.code).to.equal('rate-limited');
    expect(refused!.details).to.deep.include({ budget: 'appGenerations' });
    expect(refused!.retryAfterSeconds).to.be.within(3500, 3660);
    expect(generator.asked, 'the model was not asked').to.equal(asked);
    expect((await h.apps.listApps.execute({ principal: ada })).apps, 'no fork was kept').to.have.length(1);
    // A fork without an instruction asks no model, and pays nothing.
    await h.apps.seedApp.execute({ principal: ada, slot: 'pricing' });
    expect(generator.asked).to.equal(asked);
  });

  it('a rebase that replays an edit trail pays one of `appGenerations`: refused once they are spent, the fork left as it was', async () => {
    const { h, generator } = harness({ appGenerations: { max: 2, windowSeconds: 3600 } });
    const fork = await h.apps.seedApp.execute({ principal: ada, slot: 'pricing', instruction: 'add a note about VAT' });
    await host.change('Pricing 2026');
    await h.apps.syncPins.execute({});
    await h.apps.rebasePin.execute({ principal: ada, appId: fork.id, slot: 'pricing' });
    expect((await h.meter!.figures(ada.subject)).appGenerations).to.deep.include({ used: 2, remaining: 0 });

    await host.change('Pricing 2027');
    await h.apps.syncPins.execute({});
    const asked = generator.asked;
    const versions = (await h.apps.listVersions.execute({ principal: ada, appId: fork.id })).versions.length;
    const refused = await refusalOf(h.apps.rebasePin.execute({ principal: ada, appId: fork.id, slot: 'pricing' }));
    expect(refused?.details).to.deep.include({ budget: 'appGenerations' });
    expect(generator.asked, 'the model was not asked').to.equal(asked);
    expect((await h.apps.listVersions.execute({ principal: ada, appId: fork.id })).versions).to.have.length(versions);
    expect((await h.apps.openApp.execute({ principal: ada, appId: fork.id })).pinDrift).to.not.equal(null);
  });

  it("the tokens a generation spends are counted like a turn's: once none is left, create, edit, seed and rebase are refused before the model is asked", async () => {
    const { h, generator } = harness({ tokens: { max: 10, windowSeconds: 600 } });
    const drifting = await h.apps.seedApp.execute({ principal: ada, slot: 'pricing', instruction: 'note' });
    await host.change('Pricing 2026');
    await h.apps.syncPins.execute({});
    expect((await h.meter!.figures(ada.subject)).tokens!.remaining).to.be.greaterThan(0);
    const app = await h.apps.createApp.execute({ principal: ada, prompt: 'a reading list with notes and tags' });
    // The scripted generator counts a word of the request or a node written as a token.
    const used = (await h.meter!.figures(ada.subject)).tokens!.used;
    expect(used).to.be.greaterThan(10);
    const fork = await refusalOf(h.apps.seedApp.execute({ principal: ada, slot: 'pricing' }));
    expect(fork, 'a fork without an instruction asks no model').to.equal(null);
    const asked = generator.asked;
    for (const attempt of [
      h.apps.createApp.execute({ principal: ada, prompt: 'another' }),
      h.apps.editApp.execute({ principal: ada, appId: app.id, instruction: 'add a footnote' }),
      h.apps.seedApp.execute({ principal: ada, slot: 'pricing', instruction: 'add a note' }),
      h.apps.rebasePin.execute({ principal: ada, appId: drifting.id, slot: 'pricing' }),
    ]) {
      const refused = await refusalOf(attempt);
      expect(refused?.details).to.deep.include({ budget: 'tokens' });
    }
    expect(generator.asked).to.equal(asked);
    expect((await h.meter!.figures(ada.subject)).tokens!.used, 'the refusals spent nothing').to.equal(used);
  });

  it("generations asked outside a turn count toward the person's turns in flight: one past the bound is 429 before the model is asked", async () => {
    const { h, generator } = harness({ appGenerations: { max: 10, windowSeconds: 600 } }, 1);
    let open!: () => void;
    generator.gate = new Promise<void>((resolve) => (open = resolve));
    const first = h.apps.createApp.execute({ principal: ada, prompt: 'a reading list' });
    expect(await eventually(() => generator.asked === 1, 2_000)).to.equal(true);
    for (const attempt of [
      h.apps.createApp.execute({ principal: ada, prompt: 'another' }),
      h.apps.seedApp.execute({ principal: ada, slot: 'pricing', instruction: 'add a note' }),
    ]) {
      const refused = await refusalOf(attempt);
      expect(refused?.details).to.deep.include({ budget: 'turnsInFlight' });
      expect(refused!.retryAfterSeconds).to.be.within(1, 15);
    }
    expect(generator.asked, 'the model was not asked').to.equal(1);
    expect((await h.meter!.figures(ada.subject)).appGenerations, 'the refusals spent nothing').to.deep.include({ used: 1 });
    // A chat turn's own tool call is inside the turn's place: it takes no second one.
    const fromTurn = h.call('porter_apps_create', { prompt: 'from a turn' });
    expect(await eventually(() => generator.asked === 2, 2_000)).to.equal(true);
    open();
    await first;
    expect((await fromTurn).status).to.equal('ran');
    await h.apps.createApp.execute({ principal: ada, prompt: 'the place is free again' });
  });

  it('a refused generation spends nothing: with no token left, no `appGenerations` unit is taken either', async () => {
    const { h } = harness({ tokens: { max: 1, windowSeconds: 600 }, appGenerations: { max: 5, windowSeconds: 600 } });
    await h.apps.createApp.execute({ principal: ada, prompt: 'a reading list' });
    await refusalOf(h.apps.createApp.execute({ principal: ada, prompt: 'another' }));
    expect((await h.meter!.figures(ada.subject)).appGenerations).to.deep.include({ used: 1 });
  });
});
