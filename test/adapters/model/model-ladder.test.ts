import { expect } from 'chai';
import { modelFromLadder, pickRung } from '../../../adapters/model/model-ladder.js';
import { chatCompletionsServer, type ChatCompletionsServer } from '../../support/chat-completions-server.js';
import { devHost } from '../../support/dev-host-fixture.js';
import { textOf, toolPart } from '../../support/turn-client.js';

describe('the model ladder against a local OpenAI chat-completions server', function () {
  this.timeout(30_000);
  let server: ChatCompletionsServer;
  afterEach(async () => {
    await server?.close();
  });

  it('picks a rung from the environment: OpenAI, Anthropic, then any OpenAI-compatible server', async () => {
    expect((await modelFromLadder({ OPENAI_API_KEY: 'sk-x' }, false))?.label).to.equal('openai:gpt-4.1-mini');
    expect((await modelFromLadder({ ANTHROPIC_API_KEY: 'k' }, false))?.label).to.equal('anthropic:claude-sonnet-4-5');
    expect((await modelFromLadder({ PORTER_MODEL_URL: 'http://127.0.0.1:1/v1', PORTER_MODEL: 'qwen3' }, false))?.label).to.equal(
      'openai-compatible:qwen3',
    );
    expect(
      (
        await modelFromLadder(
          { OPENAI_API_KEY: 'sk-x', PORTER_MODEL_URL: 'http://x/v1', PORTER_MODEL_PROVIDER: 'openai-compatible' },
          false,
        )
      )?.label,
    ).to.equal('openai-compatible:llama3.1');
    expect((await modelFromLadder({}, true))?.label).to.equal('porter:scripted');
    expect(await modelFromLadder({}, false)).to.equal(null);
    expect(() => pickRung({ PORTER_MODEL_PROVIDER: 'anthropic' })).to.throw(/ANTHROPIC|key or URL/);
  });

  for (const rung of ['PORTER_MODEL_URL', 'OPENAI_API_KEY'] as const) {
    it(`streams a turn, and a guarded tool call, through the ${rung} rung`, async () => {
      server = await chatCompletionsServer((_request, index) =>
        index === 0 ? { toolCalls: [{ id: 'call_abc', name: 'notes_list', arguments: '{}' }] } : { text: 'You have no notes yet.' },
      );
      const env =
        rung === 'PORTER_MODEL_URL'
          ? { PORTER_MODEL_URL: server.url, PORTER_MODEL: 'local-model' }
          : { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.url };
      const host = await devHost({ env, porter: { instructions: 'You are the notes assistant.', maxOutputTokens: 300 } });
      try {
        const ada = host.client.as('ada');
        expect((await ada.json('GET', '/status')).body.blocks.model).to.equal('ladder');
        const thread = await ada.newThread();
        const turn = await ada.say(thread, 'what are my notes?');
        expect(toolPart(turn.message, 'notes_list')).to.deep.include({ state: 'output-available', output: { notes: [] } });
        expect(textOf(turn.message)).to.equal('You have no notes yet.');

        const [first, second] = server.requests;
        expect(first!.stream).to.equal(true);
        expect(first!.messages[0]).to.deep.equal({ role: 'system', content: 'You are the notes assistant.' });
        expect(first!.messages.at(-1)).to.deep.include({ role: 'user' });
        expect(first!.tools.map((t: { function: { name: string } }) => t.function.name)).to.include.members([
          'notes_list',
          'notes_add',
          'notes_clear',
          'web_fetch',
        ]);
        expect(first!.max_tokens ?? first!.max_completion_tokens).to.equal(300);
        // The second step carries the call and its result, so the model sees what the tool said.
        const toolMessage = second!.messages.find((m: { role: string }) => m.role === 'tool');
        expect(toolMessage).to.deep.include({ tool_call_id: 'call_abc' });
        expect(JSON.parse(toolMessage.content)).to.deep.equal({ notes: [] });
        if (rung === 'OPENAI_API_KEY') expect(server.headers[0]!.authorization).to.equal('Bearer sk-local');
      } finally {
        await host.close();
      }
    });
  }

  it('ends the turn with an error part and keeps a readable thread when the provider drops mid-answer', async () => {
    server = await chatCompletionsServer(() => ({ text: 'Here is the start of an answer that', dropAfter: true }));
    const host = await devHost({ env: { PORTER_MODEL_URL: server.url } });
    try {
      const ada = host.client.as('ada');
      const thread = await ada.newThread();
      const turn = await ada.say(thread, 'hello');
      expect(turn.chunks.some((c) => c.type === 'error')).to.equal(true);
      expect(turn.chunks.at(-1)).to.deep.include({ type: 'finish' });
      const stored = await ada.json('GET', `/threads/${thread}`);
      expect(stored.status).to.equal(200);
      expect(stored.body.messages).to.have.length(2);
      expect(JSON.stringify(stored.body.messages[1])).to.contain('data-porter-error');
    } finally {
      await host.close();
    }
  });
});
