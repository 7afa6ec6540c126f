import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';

/**
 * The scripted model, counting the steps it is asked for: a budget's test shows the model was not
 * called once the budget was spent.
 */
export class CountedModel extends ScriptedLanguageModel {
  steps = 0;

  override async doStream(options: LanguageModelV4CallOptions) {
    this.steps += 1;
    return super.doStream(options);
  }
}
