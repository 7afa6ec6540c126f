import type { CreateRequest, EditRequest } from '../../ports/app-generator.js';
import { DeterministicAppGenerator } from '../../adapters/apps/deterministic-app-generator.js';

/**
 * The scripted model's app generator, counting the generations it is asked for: a budget's test
 * shows the model was not asked once the budget was spent.
 */
export class CountedGenerator extends DeterministicAppGenerator {
  asked = 0;

  override create(request: CreateRequest): AsyncIterable<unknown> {
    this.asked += 1;
    return super.create(request);
  }

  override edit(request: EditRequest): AsyncIterable<unknown> {
    this.asked += 1;
    return super.edit(request);
  }
}
