import { createOpenAI } from '@ai-sdk/openai';
import type { LadderEnvironment, RungModel } from './model-ladder.js';
import { defined } from '../../domain/defined.js';

/** OPENAI_API_KEY (and OPENAI_BASE_URL): OpenAI's chat completions. */
export function openaiRung(env: LadderEnvironment): RungModel {
  const name = env.PORTER_MODEL || 'gpt-4.1-mini';
  const provider = createOpenAI({ apiKey: env.OPENAI_API_KEY, ...defined({ baseURL: env.OPENAI_BASE_URL || undefined }) });
  return { model: provider.chat(name), label: `openai:${name}` };
}
