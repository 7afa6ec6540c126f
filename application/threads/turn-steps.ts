import type { MessageDraft, UiChunk } from '../../domain/threads/ui-chunk.js';
import { modelView } from '../../domain/threads/model-view.js';
import { isToolPart, textOf, type UiMessage } from '../../domain/threads/ui-message.js';
import type { Principal } from '../../domain/principal.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Model, ModelEvent } from '../../ports/model.js';
import type { ToolRegistry } from '../../ports/tool-registry.js';
import type { ModelAttachments } from '../files/model-attachments.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import type { ChatSettings } from './chat-settings.js';
import { stopped, type TurnInput } from './turn-input.js';
import type { ModelToolCall, TurnToolCalls } from './turn-tool-calls.js';
import { defined } from '../../domain/defined.js';

/** Recalls what bears on the person's message (application/memory/recall-memories.ts): a block for the instructions, or null. */
export interface TurnRecall {
  forTurn(principal: Principal, message: string): Promise<string | null>;
}

/** What TurnSteps is built from (AgentTurn's deps). */
export interface TurnStepsDeps {
  readonly model: Model;
  readonly tools: ToolRegistry;
  readonly settings: ChatSettings;
  readonly ids: Ids;
  readonly logger: Logger;
  /** The subject's token budget, checked before each step and charged after it (`NoUsageMeter`: nothing is metered). */
  readonly meter: UsageMeter;
  readonly recall?: TurnRecall | undefined;
  readonly attachments?: ModelAttachments | undefined;
}

/**
 * The model's steps of a turn: each step is shown the thread (its window, its files in the
 * provider's form) and the instructions with what was recalled, streams its text, and hands the
 * calls it asked for to TurnToolCalls; the loop ends when the model is done, a call parked, the
 * output budget or the steps ran out, or a stop was asked.
 */
export class TurnSteps {
  constructor(
    private readonly deps: TurnStepsDeps,
    private readonly calls: TurnToolCalls,
  ) {}

  async converse(
    input: TurnInput,
    earlier: UiMessage[],
    draft: MessageDraft,
    emit: (chunk: UiChunk) => void,
    recalled: Promise<string | null>,
    record: (() => Promise<void>) | null,
  ) {
    const tools = this.deps.tools.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    const known = new Set(earlier.concat(draft.message).flatMap((m) => m.parts.filter(isToolPart).map((p) => p.toolCallId)));
    let budget = this.deps.settings.maxOutputTokens;
    const instructions = joined(this.deps.settings.instructions, await recalled);
    const showFiles = this.deps.attachments?.forTurn(input.principal.subject);

    for (let step = 0; step < this.deps.settings.maxSteps; step++) {
      if (stopped(input) || (await input.scope?.shouldStop?.())) return 'other';
      // A step starts while any of the subject's tokens are left (what it spends is counted after).
      await this.deps.meter.ensureLeft(input.principal, 'tokens');
      emit({ type: 'start-step' });
      const window = modelView(earlier, draft.message, {
        toolOutputCap: this.deps.settings.toolOutputCap,
        ...defined({ historyWindow: this.deps.settings.historyWindow || undefined }),
      });
      const view = showFiles ? await showFiles(window) : window;
      const calls: ModelToolCall[] = [];
      let textId: string | null = null;
      let finish: Extract<ModelEvent, { type: 'finish' }> | null = null;
      try {
        for await (const event of this.deps.model.streamStep({
          messages: view,
          tools,
          signal: input.stop ? AbortSignal.any([input.signal, input.stop]) : input.signal,
          ...defined({ instructions: instructions || undefined, maxOutputTokens: budget }),
        })) {
          if (event.type === 'text-delta') {
            if (!textId) emit({ type: 'text-start', id: (textId = this.deps.ids.mint('message')) });
            emit({ type: 'text-delta', id: textId, delta: event.delta });
          } else if (event.type === 'tool-call') {
            calls.push(known.has(event.toolCallId) ? { ...event, toolCallId: this.deps.ids.mint('toolCall') } : event);
          } else {
            finish = event;
          }
        }
      } catch (error) {
        // Stopped mid-step: the step ends with what the model said; the calls it asked for do not run.
        if (!stopped(input)) throw error;
        if (textId) emit({ type: 'text-end', id: textId });
        emit({ type: 'finish-step' });
        return 'other';
      }
      if (textId) emit({ type: 'text-end', id: textId });
      if (finish?.totalTokens) await this.deps.meter.record(input.principal, 'tokens', finish.totalTokens);

      const parked = await this.calls.ranInStep(input, calls, known, view, emit, record);
      emit({ type: 'finish-step' });

      if (stopped(input)) return 'other';
      if (budget !== undefined && finish?.outputTokens !== undefined) budget -= finish.outputTokens;
      if (parked) return 'tool-calls';
      if (calls.length === 0) return finish?.reason ?? 'stop';
      if (budget !== undefined && budget <= 0) return 'length';
    }
    return 'other';
  }

  /**
   * The person's memories that bear on their latest message, once per turn. A recall that fails
   * costs the turn its memories, never the answer: it is logged and the turn goes on without.
   */
  async recalled(input: TurnInput, earlier: ReadonlyArray<UiMessage>): Promise<string | null> {
    if (input.recalled) return input.recalled;
    if (!this.deps.recall) return null;
    const asked = earlier.findLast((message) => message.role === 'user');
    if (!asked) return null;
    return recallFor(this.deps, input.principal, textOf(asked), input.threadId);
  }
}

/**
 * The person's memories that bear on `message` (null without `recall`). A recall that fails costs
 * the turn its memories, never the answer: it is logged and null.
 */
export async function recallFor(
  deps: { readonly recall?: TurnRecall | undefined; readonly logger: Logger },
  principal: Principal,
  message: string,
  threadId: string,
): Promise<string | null> {
  if (!deps.recall) return null;
  try {
    return await deps.recall.forTurn(principal, message);
  } catch (error) {
    deps.logger.warn('memories could not be recalled; the turn goes on without them', {
      threadId,
      cause: error instanceof Error ? error.message : String(error),
    });
    return null;
  }
}

/** The host's instructions and what was recalled, as one system text (or none). */
function joined(instructions: string | undefined, recalled: string | null): string | undefined {
  if (!recalled) return instructions;
  return instructions ? `${instructions}\n\n${recalled}` : recalled;
}
