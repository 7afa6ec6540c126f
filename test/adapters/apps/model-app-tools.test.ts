import { expect } from 'chai';
import { appsHarness } from '../../support/apps-harness.js';
import { ada } from '../../support/guard-harness.js';
import { toolDocument } from '../../support/apps-documents.js';
import { RecordingLanguageModel } from '../../support/recording-model.js';
import { AiSdkModel } from '../../../adapters/model/ai-sdk-model.js';
import { ModelAppGenerator } from '../../../adapters/apps/model-app-generator.js';
import { demoTools } from '../../../composition/dev-host/demo-tools.js';

describe('ModelAppGenerator and the host tools an app may run', () => {
  it('tells the model each host tool (name, risk, what it does, its input) and keeps the tool actions it writes', async () => {
    const model = new RecordingLanguageModel(() => ({ text: JSON.stringify(toolDocument()) }));
    const h = appsHarness({ generator: new ModelAppGenerator(new AiSdkModel(model, 'custom', 'test'), { tools: demoTools() }) });
    const app = await h.apps.createApp.execute({ principal: ada, prompt: 'a board for my notes' });
    const instructions = JSON.stringify(model.prompts[0]![0]);
    expect(instructions).to.contain('{\\"kind\\":\\"tool\\",\\"tool\\":<name>');
    expect(instructions).to.contain('- notes_add (write): Add a note for the signed-in user. Input: {text: string}');
    expect(instructions).to.contain('- notes_list (read): List the signed-in user');
    expect(instructions).to.contain(
      '- web_fetch (read, reaches the internet): Fetch a web page and return the start of its text. Input: {url: string}',
    );
    const stored = await h.apps.getApp.execute({ principal: ada, appId: app.id });
    expect(stored.document.actions['add-note']).to.deep.equal({ kind: 'tool', tool: 'notes_add' });
  });

  it('says nothing about tools when the host has none', async () => {
    const model = new RecordingLanguageModel(() => ({ text: JSON.stringify(toolDocument()) }));
    const h = appsHarness({ generator: new ModelAppGenerator(new AiSdkModel(model, 'custom', 'test')) });
    await h.apps.createApp.execute({ principal: ada, prompt: 'notes' });
    expect(JSON.stringify(model.prompts[0]![0])).to.not.contain('"kind\\":\\"tool\\"');
  });
});
