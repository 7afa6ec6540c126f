import { NotImplemented } from '../../domain/errors.js';
import type { Model, ModelEvent, ModelText } from '../../ports/model.js';

/** What a deployment without a model answers wherever one is needed. */
export const NO_MODEL = 'No model is configured: pass `model`, or set OPENAI_API_KEY, ANTHROPIC_API_KEY or PORTER_MODEL_URL';

/**
 * The model of a deployment that has none (the null object): every step answers NotImplemented,
 * so the core never checks for a missing model. `/status` still says `agent: false`.
 */
export class NoModel implements Model {
  readonly source = 'ladder' as const;
  readonly label = 'none';

  assertConfigured(): void {
    throw new NotImplemented(NO_MODEL);
  }

  // eslint-disable-next-line require-yield
  async *streamStep(): AsyncIterable<ModelEvent> {
    throw new NotImplemented(NO_MODEL);
  }

  async generateText(): Promise<ModelText> {
    throw new NotImplemented(NO_MODEL);
  }
}
