import { expect } from 'chai';
import { appsHarness, dataParts } from '../../support/apps-harness.js';
import { ada } from '../../support/guard-harness.js';
import { tinyDocument } from '../../support/apps-documents.js';
import { hostComponents } from '../../support/apps-pins.js';
import { RecordingLanguageModel } from '../../support/recording-model.js';
import { AiSdkModel } from '../../../adapters/model/ai-sdk-model.js';
import { ModelAppGenerator } from '../../../adapters/apps/model-app-generator.js';
import { FilePinCatalog } from '../../../adapters/apps/file-pin-catalog.js';
import type { AppView } from '../../../domain/apps/app-view.js';
import type { AppDocument } from '../../../domain/apps/app-document.js';
import { Unavailable } from '../../../domain/errors.js';

/** What the model answers with, in turn: each generation takes the next answer (the last one repeats). */
type Answer = string | { failAfter: string };

/**
 * Ada's deployment with a real AI SDK model behind the ModelAppGenerator, answering as the test
 * says, and a host component (`pricing`) to fork and rebase.
 */
async function deployment() {
  const host = await hostComponents();
  let answers: Answer[] = [];
  const model = new RecordingLanguageModel(() => {
    const next = answers.length > 1 ? answers.shift()! : answers[0]!;
    return typeof next === 'string' ? { text: next } : { text: next.failAfter, failAfter: true };
  });
  const h = appsHarness({
    generator: new ModelAppGenerator(new AiSdkModel(model, 'custom', 'test')),
    catalog: new FilePinCatalog({ manifestFile: host.manifestFile }),
  });
  return {
    host,
    h,
    answer: (...next: Answer[]) => void (answers = next),
    apps: async () => (await h.apps.listApps.execute({ principal: ada })).apps,
    versions: async (appId: string) => (await h.apps.listVersions.execute({ principal: ada, appId })).versions,
  };
}

const valid = (title: string): string => JSON.stringify({ ...tinyDocument(), title });
/** A JSON document that breaks the rules: its root names a node that does not exist. */
const breaksTheRules = JSON.stringify({ ...tinyDocument(), root: 'nowhere' } satisfies AppDocument);
const ANSWERS_NO_APP: Array<[string, Answer, RegExp]> = [
  ['prose instead of JSON', "Sure! I'd be glad to build that app for you. What colour would you like?", /complete JSON document/],
  [
    'JSON cut off mid-way',
    '{"format":1,"title":"Half","ui":"tree","scope":"owner","root":"root","nodes":{"root":{"type":"st',
    /complete JSON document/,
  ],
  ['JSON that breaks the document rules', breaksTheRules, /not a valid app document/],
  ['a provider failing mid-answer', { failAfter: '{"format":1,"title":"Gone' }, /the call to it failed/],
];

describe('App generation when the model answers something that is not an app', () => {
  let d: Awaited<ReturnType<typeof deployment>>;

  beforeEach(async () => {
    d = await deployment();
  });

  afterEach(async () => {
    await d.host.remove();
  });

  /** The refusal every path gives: the model's failure (503 `unavailable`), saying what went wrong and that nothing was saved. */
  function expectModelFailure(error: unknown, reason: RegExp, what: string): void {
    expect(error, what).to.be.instanceOf(Unavailable);
    const failure = error as Unavailable;
    expect(failure.code, what).to.equal('unavailable');
    expect(failure.message, what)
      .to.match(/^The model could not write this app/)
      .and.match(reason)
      .and.match(/nothing was saved/i);
  }

  it('creating: answers unavailable naming the problem, stores nothing and marks the watched view failed', async () => {
    for (const [what, answer, reason] of ANSWERS_NO_APP) {
      d.answer(answer);
      const watch = dataParts();
      const error = await d.h.apps.createApp
        .execute({ principal: ada, prompt: 'a reading list', view: (v) => watch.writeData({ type: 'data-porter-view', data: v }) })
        .catch((e: unknown) => e);
      expectModelFailure(error, reason, what);
      expect((watch.parts.at(-1)?.data as AppView | undefined)?.status, what).to.equal('failed');
      expect(await d.apps(), what).to.have.length(0);
    }
  });

  it('lists the document issues when the model wrote JSON that breaks the rules', async () => {
    d.answer(breaksTheRules);
    const error = (await d.h.apps.createApp.execute({ principal: ada, prompt: 'a reading list' }).catch((e: unknown) => e)) as Unavailable;
    expect(error.code).to.equal('unavailable');
    expect(error.details?.issues).to.deep.include({ path: 'root', message: 'must be the id of a node in nodes' });
  });

  it('editing: answers unavailable, and the app keeps its one version', async () => {
    d.answer(valid('Reading list'));
    const app = await d.h.apps.createApp.execute({ principal: ada, prompt: 'a reading list' });
    for (const [what, answer, reason] of ANSWERS_NO_APP) {
      d.answer(answer);
      const error = await d.h.apps.editApp.execute({ principal: ada, appId: app.id, instruction: 'add a footer' }).catch((e: unknown) => e);
      expectModelFailure(error, reason, what);
      expect(await d.versions(app.id), what).to.have.length(1);
      expect((await d.h.apps.getApp.execute({ principal: ada, appId: app.id })).contentHash, what).to.equal(app.contentHash);
    }
  });

  it('seeding a fork with an instruction: answers unavailable and no fork is made', async () => {
    for (const [what, answer, reason] of ANSWERS_NO_APP) {
      d.answer(answer);
      const error = await d.h.apps.seedApp
        .execute({ principal: ada, slot: 'pricing', instruction: 'add a VAT note' })
        .catch((e: unknown) => e);
      expectModelFailure(error, reason, what);
      expect(await d.apps(), what).to.have.length(0);
    }
  });

  it('rebasing a drifted fork: answers unavailable and the fork stays as it was, still drifted', async () => {
    d.answer(valid('Pricing with VAT'));
    const fork = await d.h.apps.seedApp.execute({ principal: ada, slot: 'pricing', instruction: 'add a VAT note' });
    await d.host.change('Pricing 2026');
    await d.h.apps.syncPins.execute({});
    for (const [what, answer, reason] of ANSWERS_NO_APP) {
      d.answer(answer);
      const error = await d.h.apps.rebasePin.execute({ principal: ada, appId: fork.id, slot: 'pricing' }).catch((e: unknown) => e);
      expectModelFailure(error, reason, what);
      expect(await d.h.apps.getApp.execute({ principal: ada, appId: fork.id }), what).to.deep.include({
        version: fork.version,
        drifted: true,
      });
      expect(await d.versions(fork.id), what).to.have.length(1);
    }
  });

  it('through the chat tool: the call fails as unavailable and no app is stored', async () => {
    d.answer(ANSWERS_NO_APP[0]![1]);
    const result = await d.h.call('porter_apps_create', { prompt: 'a reading list' });
    expect(result).to.deep.include({ status: 'failed', code: 'unavailable' });
    expect(await d.apps()).to.have.length(0);
  });
});
