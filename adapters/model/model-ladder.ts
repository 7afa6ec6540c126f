import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { Model } from '../../ports/model.js';
import { AiSdkModel } from './ai-sdk-model.js';
import { ScriptedLanguageModel } from './scripted-language-model.js';

/** The environment variables the ladder reads. */
export interface LadderEnvironment {
  readonly OPENAI_API_KEY?: string;
  readonly OPENAI_BASE_URL?: string;
  readonly ANTHROPIC_API_KEY?: string;
  readonly ANTHROPIC_BASE_URL?: string;
  /** Any OpenAI-compatible server: Ollama, vLLM, llama.cpp (`http://localhost:11434/v1`). */
  readonly PORTER_MODEL_URL?: string;
  readonly PORTER_MODEL_API_KEY?: string;
  /** The model name for whichever provider is picked. */
  readonly PORTER_MODEL?: string;
  /** Picks a rung when several are configured: `openai`, `anthropic` or `openai-compatible`. */
  readonly PORTER_MODEL_PROVIDER?: string;
}

type Rung = 'openai' | 'anthropic' | 'openai-compatible';

/**
 * The model ladder: a provider named by the environment (OpenAI, Anthropic, any OpenAI-compatible
 * server), else — in development only — the offline scripted model, else none (turns answer 501).
 */
export function modelFromLadder(env: LadderEnvironment, development: boolean): Model | null {
  const rung = pickRung(env);
  if (rung === 'openai') {
    const name = env.PORTER_MODEL || 'gpt-4.1-mini';
    const provider = createOpenAI({ apiKey: env.OPENAI_API_KEY, ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}) });
    return ladder(provider.chat(name), `openai:${name}`);
  }
  if (rung === 'anthropic') {
    const name = env.PORTER_MODEL || 'claude-sonnet-4-5';
    const provider = createAnthropic({ apiKey: env.ANTHROPIC_API_KEY, ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}) });
    return ladder(provider(name), `anthropic:${name}`);
  }
  if (rung === 'openai-compatible') {
    const name = env.PORTER_MODEL || 'llama3.1';
    const provider = createOpenAICompatible({ name: 'porter-model-url', baseURL: env.PORTER_MODEL_URL!, ...(env.PORTER_MODEL_API_KEY ? { apiKey: env.PORTER_MODEL_API_KEY } : {}) });
    return ladder(provider.chatModel(name), `openai-compatible:${name}`);
  }
  return development ? ladder(new ScriptedLanguageModel(), 'porter:scripted') : null;
}

function ladder(model: LanguageModel, label: string): Model {
  return new AiSdkModel(model, 'ladder', label);
}

function pickRung(env: LadderEnvironment): Rung | null {
  const available: Record<Rung, boolean> = {
    openai: Boolean(env.OPENAI_API_KEY),
    anthropic: Boolean(env.ANTHROPIC_API_KEY),
    'openai-compatible': Boolean(env.PORTER_MODEL_URL),
  };
  const forced = env.PORTER_MODEL_PROVIDER as Rung | undefined;
  if (forced) {
    if (!(forced in available)) throw new Error(`PORTER_MODEL_PROVIDER must be openai, anthropic or openai-compatible (got "${forced}")`);
    if (!available[forced]) throw new Error(`PORTER_MODEL_PROVIDER=${forced} but its key or URL is not set`);
    return forced;
  }
  return (['openai', 'anthropic', 'openai-compatible'] as const).find((rung) => available[rung]) ?? null;
}
