import { expect } from 'chai';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import type { UiChunk } from '../../../domain/threads/ui-chunk.js';
import { ada } from '../../support/guard-harness.js';
import { knowledgeOn } from '../../support/knowledge-harness.js';
import { ManualClock } from '../../support/manual-clock.js';
import { RecordingLanguageModel, type Reply } from '../../support/recording-model.js';
import { turnHarness } from '../../support/turn-harness.js';

describe('knowledge in a turn (agent loop, guard)', () => {
  it('the model reads the passages; the answer cites each passage once, however often it is found, and keeps the citations', async () => {
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    const knowledge = knowledgeOn(new MemoryStore({ clock }), clock);
    await knowledge.add.execute({ by: 'host', title: 'Handbook', format: 'text', content: 'Refunds for the wombat tour take five days.' });
    const replies: Reply[] = [
      {
        toolCalls: [
          { toolName: 'knowledge_search', input: { query: 'wombat refunds' } },
          { toolName: 'knowledge_search', input: { query: 'wombat' } },
        ],
      },
      { text: 'Five days, says the Handbook.' },
    ];
    const model = new RecordingLanguageModel((_prompt, call) => replies[Math.min(call, replies.length - 1)]!);
    const h = turnHarness({ model, tools: [knowledge.tool] });
    const { id } = await h.createThread.execute({ principal: ada });
    const chunks: UiChunk[] = await h.say(id, 'How long do wombat tour refunds take?');

    // Read without asking (a read), and shown to the model.
    expect(chunks.some((c) => c.type === 'tool-approval-request')).to.equal(false);
    const toolResults = JSON.stringify(model.prompts[1]);
    expect(toolResults).to.contain('Refunds for the wombat tour take five days.');
    const sources = chunks.filter((c) => c.type === 'source-document');
    expect(sources).to.have.length(1);
    expect(sources[0]).to.deep.include({ title: 'Handbook', mediaType: 'text/plain' });

    const thread = await h.getThread.execute({ principal: ada, threadId: id });
    const parts = thread.messages.at(-1)!.parts;
    expect(parts.filter((p) => p.type === 'source-document')).to.deep.equal(sources);
  });
});
