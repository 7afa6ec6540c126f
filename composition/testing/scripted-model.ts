import type { LanguageModelV4 } from '@ai-sdk/provider';
import { ScriptedLanguageModel, type ModelScript, type ScriptedReply } from '../../adapters/model/scripted-language-model.js';

export interface ScriptedModelOptions {
  /**
   * The host's own replies, asked before the built-in commands: a function of the step (the latest
   * user text, and the tool results when the step follows tool calls) answering text, a tool call
   * (`{ call: 'notes_add', input: { text: 'milk' } }`) or undefined (the commands decide); or a
   * list, one reply per model step in order, then the commands.
   */
  readonly script?: ModelScript | ReadonlyArray<ScriptedReply>;
}

/**
 * The development host's offline model as an AI SDK language model, for a host's own tests:
 * `createPorter({ model: scriptedModel() })` runs turns, approvals, automations and apps with no
 * network and the same answer every time. Built-in commands, in a user message:
 * - `/call <tool> <json input>` calls that tool, then reports its result (`<tool> returned …`);
 * - `/app <prompt>` creates an app; `/edit <appId> <instruction>` edits one;
 * - `/slow <seconds> <text>` streams the text spread over that many seconds (stop and rejoin);
 * - anything else streams back `echo: <text>`.
 * Usage counts a word as a token, so usage limits can be tried too.
 */
export function scriptedModel(options: ScriptedModelOptions = {}): LanguageModelV4 {
  return new ScriptedLanguageModel(scriptOf(options.script));
}

/** A list of replies as a script: the next one at each step, then nothing (the commands). */
function scriptOf(script: ScriptedModelOptions['script']): ModelScript | undefined {
  if (script === undefined || typeof script === 'function') return script as ModelScript | undefined;
  const replies = [...(script as ReadonlyArray<ScriptedReply>)];
  return () => replies.shift();
}
