import { createAnthropic } from '@ai-sdk/anthropic';
import type { LadderEnvironment, RungModel } from './model-ladder.js';
import { defined } from '../../domain/defined.js';

/** ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL): Anthropic's messages API. */
export function anthropicRung(env: LadderEnvironment): RungModel {
  const name = env.PORTER_MODEL || 'claude-sonnet-4-5';
  const provider = createAnthropic({
    apiKey: env.ANTHROPIC_API_KEY,
    ...defined({ baseURL: env.ANTHROPIC_BASE_URL || undefined }),
  });
  return { model: provider(name), label: `anthropic:${name}` };
}
