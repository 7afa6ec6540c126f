import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LadderEnvironment, RungModel } from './model-ladder.js';
import { defined } from '../../domain/defined.js';

/** PORTER_MODEL_URL (and PORTER_MODEL_API_KEY): any OpenAI-compatible server (Ollama, vLLM, llama.cpp). */
export function openaiCompatibleRung(env: LadderEnvironment): RungModel {
  const name = env.PORTER_MODEL || 'llama3.1';
  const provider = createOpenAICompatible({
    name: 'porter-model-url',
    baseURL: env.PORTER_MODEL_URL!,
    ...defined({ apiKey: env.PORTER_MODEL_API_KEY || undefined }),
  });
  return { model: provider.chatModel(name), label: `openai-compatible:${name}` };
}
