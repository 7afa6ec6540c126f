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

/** A rung of the ladder: a provider the environment names. */
export type Rung = 'openai' | 'anthropic' | 'openai-compatible';

/** The optional package each rung's provider comes from (Porter installs none of them itself). */
export const RUNG_PACKAGES = {
  openai: '@ai-sdk/openai',
  anthropic: '@ai-sdk/anthropic',
  'openai-compatible': '@ai-sdk/openai-compatible',
} as const satisfies Record<Rung, string>;

/** The variable that put each rung on the ladder, for messages. */
export const RUNG_VARIABLES: Readonly<Record<Rung, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  'openai-compatible': 'PORTER_MODEL_URL',
};

/**
 * The model ladder: a provider named by the environment (OpenAI, Anthropic, any OpenAI-compatible
 * server), else — in development only — the offline scripted model, else none (turns answer 501).
 * A provider's package is loaded only when its rung is picked.
 */
export async function modelFromLadder(env: LadderEnvironment, development: boolean): Promise<Model | null> {
  const rung = pickRung(env);
  if (rung === 'openai') return ladder(await import('./openai-rung.js').then((m) => m.openaiRung(env)));
  if (rung === 'anthropic') return ladder(await import('./anthropic-rung.js').then((m) => m.anthropicRung(env)));
  if (rung === 'openai-compatible') return ladder(await import('./openai-compatible-rung.js').then((m) => m.openaiCompatibleRung(env)));
  return development ? ladder({ model: new ScriptedLanguageModel(), label: 'porter:scripted' }) : null;
}

/** A rung's model and the label `/status` and the logs show. */
export interface RungModel {
  readonly model: LanguageModel;
  readonly label: string;
}

function ladder({ model, label }: RungModel): Model {
  return new AiSdkModel(model, 'ladder', label);
}

/** The rung the environment names (PORTER_MODEL_PROVIDER chooses among several), or null; throws on a wrong choice. */
export function pickRung(env: LadderEnvironment): Rung | null {
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
