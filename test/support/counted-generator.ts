import type { CreateRequest, EditRequest } from '../../ports/app-generator.js';
import { DeterministicAppGenerator } from '../../adapters/apps/deterministic-app-generator.js';

/**
 * The scripted model's app generator, counting the generations it is asked for: a budget's test
 * shows the model was not asked once the budget was spent.
 */
export class CountedGenerator extends DeterministicAppGenerator {
  asked = 0;
  /** While set, each generation waits on it before it writes anything (a generation in flight). */
  gate: Promise<void> | null = null;

  override create(request: CreateRequest): AsyncIterable<unknown> {
    this.asked += 1;
    return this.held(super.create(request));
  }

  override edit(request: EditRequest): AsyncIterable<unknown> {
    this.asked += 1;
    return this.held(super.edit(request));
  }

  private async *held(drafts: AsyncIterable<unknown>): AsyncIterable<unknown> {
    await this.gate;
    yield* drafts;
  }
}
