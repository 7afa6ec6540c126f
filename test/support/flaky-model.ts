import { APICallError } from 'ai';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { StreamOnlyModel } from '../../adapters/model/stream-only-model.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';

/**
 * The scripted model, except that a task whose user text starts with `marker` first meets a
 * provider answering 503, `failures` times in all (the AI SDK retries a 503 once itself, so one
 * failed attempt uses two), then gets `done` answered.
 */
export class FlakyModel extends StreamOnlyModel {
  private readonly inner = new ScriptedLanguageModel();
  /** Calls for the marked task, failed ones included. */
  calls = 0;

  constructor(
    private failures: number,
    private readonly marker = 'Flaky',
  ) {
    super('test', 'flaky');
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const texts = options.prompt
      .filter((message) => message.role === 'user')
      .map((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
    if (!texts.some((text) => text.startsWith(this.marker))) return this.inner.doStream(options);
    this.calls += 1;
    if (this.failures > 0) {
      this.failures -= 1;
      // Told to retry at once, so the AI SDK's own single retry does not wait its 2 s.
      throw new APICallError({
        message: 'Service Unavailable',
        url: 'https://models.example.com/v1/chat',
        requestBodyValues: {},
        statusCode: 503,
        responseHeaders: { 'retry-after-ms': '1' },
      });
    }
    return this.inner.doStream({
      ...options,
      prompt: [...options.prompt.slice(0, -1), { role: 'user', content: [{ type: 'text', text: 'done' }] }],
    });
  }
}
