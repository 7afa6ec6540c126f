import type { UiChunk, MessageDraft } from '../../domain/threads/ui-chunk.js';
import { isToolPart, toolNameOf, type ToolPart, type UiMessage } from '../../domain/threads/ui-message.js';
import { RunCannotResume, runsAgainAfterInterruption } from '../../domain/runs/interrupted-call.js';
import { LimitReached } from '../../domain/errors.js';
import type { ModelEvent } from '../../ports/model.js';
import type { StreamedData, StreamedSource, ToolRegistry } from '../../ports/tool-registry.js';
import type { CallResult } from '../guard/call-result.js';
import type { GuardCall } from '../guard/guard-call.js';
import { stopped, type TurnInput } from './turn-input.js';
import { defined } from '../../domain/defined.js';

/** A tool call as the model asked for it in a step. */
export type ModelToolCall = Extract<ModelEvent, { type: 'tool-call' }>;

/** What TurnToolCalls is built from (AgentTurn's deps). */
export interface TurnToolCallsDeps {
  readonly tools: ToolRegistry;
  readonly guard: GuardCall;
}

/**
 * The tool calls of a turn: each through the guard (GuardCall), from where the turn runs, its
 * result shown as a chunk, a parked one as an approval request.
 */
export class TurnToolCalls {
  constructor(private readonly deps: TurnToolCallsDeps) {}

  /**
   * The calls the model asked for in one step, in order, each through the guard and recorded as
   * started and as ended (a run's); a stop between calls leaves the rest unstarted. `view`: what the
   * model was shown. True when a call parked for approval.
   */
  async ranInStep(
    input: TurnInput,
    calls: ReadonlyArray<ModelToolCall>,
    known: Set<string>,
    view: ReadonlyArray<UiMessage>,
    emit: (chunk: UiChunk) => void,
    record: (() => Promise<void>) | null,
  ): Promise<boolean> {
    let parked = false;
    const toolOutputsRead = outputsIn(view);
    for (const call of calls) {
      // Stopped between calls: those already run keep their results, the rest never start.
      if (stopped(input)) break;
      known.add(call.toolCallId);
      emit({ type: 'tool-input-available', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input });
      // Recorded as started before it runs: a crash from here on leaves a trace of it.
      await record?.();
      const result = await this.guarded(call.toolCallId, emit, { ...this.callOf(input, call, emit), toolOutputsRead });
      if (result.status === 'parked') {
        parked = true;
        emit({ type: 'tool-approval-request', approvalId: result.parked.approvalId, toolCallId: call.toolCallId });
        emit({ type: 'data-porter-approval', id: `porter-approval:${result.parked.approvalId}`, data: { ...result.parked } });
      } else {
        emit(outcomeChunk(call.toolCallId, result));
      }
      await record?.();
    }
    return parked;
  }

  /**
   * A run's attempt that was cut short (its instance died) left the calls it had started without
   * a recorded end: they may or may not have run. A tool that may run twice (idempotent, or one
   * that changes nothing) runs again now, through the guard; any other ends the run saying it
   * cannot resume (RunCannotResume), its call marked so. True when a call parked for approval.
   */
  async resumeInterrupted(
    input: TurnInput,
    earlier: ReadonlyArray<UiMessage>,
    draft: MessageDraft,
    emit: (chunk: UiChunk) => void,
    record: () => Promise<void>,
  ): Promise<boolean> {
    const started = draft.message.parts.filter(
      (p): p is ToolPart => isToolPart(p) && (p.state === 'input-available' || p.state === 'input-streaming') && !p.approval?.id,
    );
    let parked = false;
    // What the model had read when it asked for these calls: the guard's risk may depend on it.
    const toolOutputsRead = outputsIn([...earlier, draft.message]);
    for (const part of started) {
      const toolName = toolNameOf(part);
      const tool = this.deps.tools.get(toolName);
      if (tool && !runsAgainAfterInterruption(tool)) {
        const refusal = new RunCannotResume(toolName);
        emit({ type: 'tool-output-error', toolCallId: part.toolCallId, errorText: refusal.message });
        await record();
        throw refusal;
      }
      // A tool no longer registered answers as invalid (never ran); one that may run twice runs again.
      const result = await this.guarded(part.toolCallId, emit, {
        ...this.callOf(input, { toolCallId: part.toolCallId, toolName, input: part.input }, emit),
        toolOutputsRead,
      });
      if (result.status === 'parked') {
        parked = true;
        emit({ type: 'tool-approval-request', approvalId: result.parked.approvalId, toolCallId: part.toolCallId });
        emit({ type: 'data-porter-approval', id: `porter-approval:${result.parked.approvalId}`, data: { ...result.parked } });
      } else {
        emit(outcomeChunk(part.toolCallId, result));
      }
      await record();
    }
    return parked;
  }

  /** A call the model asked for, as the guard takes it, from where this turn runs. */
  private callOf(
    input: TurnInput,
    call: { toolCallId: string; toolName: string; input: unknown },
    emit: (chunk: UiChunk) => void,
  ): Parameters<GuardCall['execute']>[0] {
    return {
      tool: call.toolName,
      input: call.input,
      toolCallId: call.toolCallId,
      principal: input.principal,
      venue: input.scope?.venue ?? 'chat',
      presence: input.scope?.presence ?? 'present',
      session: input.scope?.session ?? input.threadId,
      ...defined({
        threadId: input.scope ? undefined : input.threadId,
        runId: input.scope?.runId || undefined,
        automation: input.scope?.automation,
        dryRun: input.scope?.dryRun ? true : undefined,
        credentials: input.credentials,
      }),
      signal: input.signal,
      writeData: (part: StreamedData) => emit(part as UiChunk),
      cite: (source: StreamedSource) => emit({ ...source }),
    };
  }

  /** The guard's answer; a call a budget or breaker refused gets its error output before the turn ends on it. */
  private async guarded(
    toolCallId: string,
    emit: (chunk: UiChunk) => void,
    call: Parameters<GuardCall['execute']>[0],
  ): Promise<CallResult> {
    try {
      return await this.deps.guard.execute(call);
    } catch (error) {
      if (error instanceof LimitReached) emit({ type: 'tool-output-error', toolCallId, errorText: error.message });
      throw error;
    }
  }
}

/** The tools whose output (or error text) the model is shown in `view`: text that did not come from the person. */
function outputsIn(view: ReadonlyArray<UiMessage>): string[] {
  const names = new Set<string>();
  for (const message of view)
    for (const part of message.parts)
      if (isToolPart(part) && (part.state === 'output-available' || part.state === 'output-error')) names.add(toolNameOf(part));
  return [...names];
}

/** How a call's result (or a denial) is shown on the message that asked for it. */
export function outcomeChunk(toolCallId: string, outcome: CallResult | 'denied'): UiChunk {
  if (outcome === 'denied') return { type: 'tool-output-denied', toolCallId };
  switch (outcome.status) {
    case 'ran':
      return { type: 'tool-output-available', toolCallId, output: outcome.output };
    case 'failed':
      return { type: 'tool-output-error', toolCallId, errorText: outcome.error };
    case 'blocked':
      return { type: 'tool-output-error', toolCallId, errorText: outcome.reason };
    case 'invalid':
      return { type: 'tool-output-error', toolCallId, errorText: `Invalid call: ${outcome.issues.join('; ')}` };
    case 'parked':
      return { type: 'tool-approval-request', approvalId: outcome.parked.approvalId, toolCallId };
  }
}
