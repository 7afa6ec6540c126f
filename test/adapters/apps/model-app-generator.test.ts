import { expect } from 'chai';
import { appsHarness, dataParts } from '../../support/apps-harness.js';
import { ada } from '../../support/guard-harness.js';
import { largeDocument } from '../../support/apps-documents.js';
import { RecordingLanguageModel, lastUserText } from '../../support/recording-model.js';
import { AiSdkModel } from '../../../adapters/model/ai-sdk-model.js';
import { ModelAppGenerator } from '../../../adapters/apps/model-app-generator.js';
import type { AppView } from '../../../domain/apps/app-view.js';

/** The document as a model would write it: pretty-printed, so it streams in many small deltas. */
const answer = JSON.stringify(largeDocument(60), null, 1);

describe('ModelAppGenerator (a real AI SDK language model, streamed)', () => {
  it('streams a partial document into view updates and stores the finished one', async () => {
    const model = new RecordingLanguageModel(() => ({ text: answer }));
    const h = appsHarness({ generator: new ModelAppGenerator(new AiSdkModel(model, 'custom', 'test')) });
    const watch = dataParts();
    const app = await h.apps.createApp.execute({
      principal: ada,
      prompt: 'a big list of sections',
      view: (v) => watch.writeData({ type: 'data-porter-view', id: `porter-view:${v.appId}`, data: v }),
    });
    expect(app.nodes).to.equal(60);
    expect(lastUserText(model.prompts[0]!)).to.contain('a big list of sections');
    expect(JSON.stringify(model.prompts[0]![0])).to.contain('Node types: stack');
    const views = watch.parts.map((p) => p.data as AppView);
    expect(views.length).to.be.greaterThan(5);
    const growing = views.map((v) => Object.values(v.nodes).filter((n) => !n.pending).length);
    expect(growing[0]).to.be.lessThan(growing.at(-1)!);
    expect(views.some((v) => Object.values(v.nodes).some((n) => n.pending))).to.equal(true);
    expect(views.at(-1)!.status).to.equal('ready');
  });

  it('edits by sending the current document and the instruction, keeping the rung', async () => {
    let call = 0;
    const model = new RecordingLanguageModel(() =>
      call++ === 0 ? { text: answer } : { text: JSON.stringify({ ...JSON.parse(answer), title: 'Renamed' }) },
    );
    const h = appsHarness({ generator: new ModelAppGenerator(new AiSdkModel(model, 'custom', 'test')) });
    const app = await h.apps.createApp.execute({ principal: ada, prompt: 'sections' });
    const edited = await h.apps.editApp.execute({ principal: ada, appId: app.id, instruction: 'rename it' });
    expect(edited.app.title).to.equal('Renamed');
    expect(lastUserText(model.prompts[1]!)).to.contain('"title":"Large app of 60 nodes"').and.contain('Request: rename it');
  });

  it("counts each generation's tokens (the model's own usage) against the person's budget, then refuses before asking it again", async () => {
    const model = new RecordingLanguageModel(() => ({ text: answer }));
    const h = appsHarness({
      generator: new ModelAppGenerator(new AiSdkModel(model, 'custom', 'test')),
      limits: { tokens: { max: 100, windowSeconds: 600 } },
    });
    await h.apps.createApp.execute({ principal: ada, prompt: 'sections' });
    // The recording model reports a word of its answer as an output token.
    const words = answer.split(/(?<=\s)/).length;
    expect((await h.meter!.figures(ada.subject)).tokens).to.deep.include({ used: words, remaining: 0 });
    const refused = await h.apps.createApp.execute({ principal: ada, prompt: 'again' }).catch((e: unknown) => e);
    expect((refused as { code?: string }).code).to.equal('rate-limited');
    expect(model.prompts).to.have.length(1);
  });

  it('fails, storing nothing, when the model stops mid-document', async () => {
    const model = new RecordingLanguageModel(() => ({ text: answer.slice(0, answer.length / 2), failAfter: true }));
    const h = appsHarness({ generator: new ModelAppGenerator(new AiSdkModel(model, 'custom', 'test')) });
    const watch = dataParts();
    const error = await h.apps.createApp
      .execute({ principal: ada, prompt: 'x', view: (v) => watch.writeData({ type: 'data-porter-view', data: v }) })
      .catch((e) => e);
    expect(error).to.be.instanceOf(Error);
    expect((watch.parts.at(-1)!.data as AppView).status).to.equal('failed');
    expect((await h.apps.listApps.execute({ principal: ada })).apps).to.have.length(0);
  });
});
