import { applyChunk, closeOpenText, draftOf, type MessageDraft, type UiChunk } from '../../domain/threads/ui-chunk.js';
import { modelView } from '../../domain/threads/model-view.js';
import { isToolPart, type ToolPart, type UiMessage } from '../../domain/threads/ui-message.js';
import type { Principal } from '../../domain/principal.js';
import type { ApprovalOutcome } from '../../domain/guard/approval.js';
import type { Presence, Venue } from '../../domain/guard/risk.js';
import type { CallingAutomation } from '../../domain/guard/tool-call.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Model, ModelEvent } from '../../ports/model.js';
import type { StreamedData, ToolRegistry } from '../../ports/tool-registry.js';
import type { ApprovalBook } from '../guard/approval-book.js';
import type { CallResult } from '../guard/call-result.js';
import type { ExecuteApproved } from '../guard/execute-approved.js';
import type { GuardCall } from '../guard/guard-call.js';
import type { PresentCredentials } from '../guard/host-access.js';
import type { ChatSettings } from './chat-settings.js';
import { DRAFT_CHECKPOINT_MS, DraftCheckpoints } from './draft-checkpoints.js';
import type { ThreadBook } from './thread-book.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import { LimitReached } from '../../domain/errors.js';

/**
 * Where a turn's calls come from when it is not a chat turn: an automation's run executes the same
 * loop away from the person, keeps its messages in its own transcript, and may be asked to stop.
 */
export interface TurnScope {
  readonly venue: Venue;
  readonly presence: Presence;
  /** The session grants and approvals are filed under (the run id for a run). */
  readonly session: string;
  readonly runId?: string;
  /** For a run: its automation, whose grants (and only whose) its calls may use. */
  readonly automation?: CallingAutomation;
  /** Where the turn's messages are kept instead of the thread. */
  readonly save: (message: UiMessage) => Promise<void>;
  /** Asked before every step: true ends the loop once the step before it has finished (a cooperative stop). */
  readonly shouldStop?: () => Promise<boolean>;
  /** A dry run: the guard previews every write, destructive and egress call instead of running it. */
  readonly dryRun?: boolean;
  /** Told what ended the turn when it failed (a run decides from it whether to try again). */
  readonly onError?: (error: unknown) => void;
}

export interface TurnInput {
  readonly principal: Principal;
  /** The thread; for a scoped turn (a run), its id, used in logs. */
  readonly threadId: string;
  /** Absent for a chat turn: venue chat, the person present, the thread as session and store. */
  readonly scope?: TurnScope;
  /** The thread as stored, oldest first, including the new user message if any. */
  readonly messages: UiMessage[];
  /** The assistant message this turn continues, or null to start a new one. */
  readonly continuing: UiMessage | null;
  readonly credentials?: PresentCredentials;
  /** Aborts everything at once, tool calls included (nobody reads any more, the thread was deleted). */
  readonly signal: AbortSignal;
  /**
   * A person's stop, cooperative: the model's current step is cut where it is, calls already
   * running finish, no further call or step starts, and the turn ends with what it produced.
   */
  readonly stop?: AbortSignal;
  readonly emit: (chunk: UiChunk) => void;
}

/** What AgentTurn is built from. */
export interface AgentTurnDeps {
  readonly model: Model;
  readonly tools: ToolRegistry;
  readonly guard: GuardCall;
  readonly executeApproved: ExecuteApproved;
  readonly approvals: ApprovalBook;
  readonly threads: ThreadBook;
  readonly settings: ChatSettings;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The subject's token budget, checked before each step and charged after it; absent, nothing is metered. */
  readonly meter?: UsageMeter;
}

/**
 * One turn of the agent loop. First every approved call of the thread runs (exactly once) and its
 * output is shown; then the model speaks step by step, every tool call it asks for passes the
 * guard, and the turn ends when the model is done, when a call is parked for approval, or when
 * the output budget is spent. What was produced is saved however the turn ends.
 */
export class AgentTurn {
  constructor(private readonly deps: AgentTurnDeps) {}

  /**
   * Runs the turn; resolves with the saved assistant message. A failing model or tool does not
   * reject: the turn ends with an error part and what was produced is saved. It rejects only when
   * that save (or the caller's `emit`) throws, so callers still catch.
   */
  async run(input: TurnInput): Promise<UiMessage> {
    const draft = draftOf(input.continuing ?? { id: this.deps.ids.mint('message'), role: 'assistant', parts: [] });
    const earlier = input.messages.filter((m) => m.id !== draft.message.id);
    // The answer is saved as it streams, so an instance that dies mid-turn loses only the last moments.
    const checkpoints = new DraftCheckpoints(
      () => this.save(input, closedDraft(draft)),
      this.deps.settings.checkpointMs ?? DRAFT_CHECKPOINT_MS,
      this.deps.logger,
      { threadId: input.threadId },
    );
    const emit = (chunk: UiChunk) => {
      applyChunk(draft, chunk);
      checkpoints.touch();
      input.emit(chunk);
    };
    emit({ type: 'start', messageId: draft.message.id });
    let finishReason: 'stop' | 'length' | 'tool-calls' | 'error' | 'other';
    try {
      await this.settlePendingCalls(input, earlier, draft, emit);
      finishReason = await this.converse(input, earlier, draft, emit);
    } catch (error) {
      finishReason = 'error';
      input.scope?.onError?.(error);
      if (stopped(input)) {
        finishReason = 'other';
      } else if (error instanceof LimitReached) {
        // A budget or breaker ran out mid-way: the stream says which and when it frees.
        this.deps.logger.info('turn refused by a budget', { threadId: input.threadId, budget: error.budget });
        emit({ type: 'error', errorText: error.message });
        emit({
          type: 'data-porter-error',
          data: {
            message: error.message,
            code: error.code,
            budget: error.budget,
            ...(error.retryAfterSeconds !== null ? { retryAfter: error.retryAfterSeconds } : {}),
          },
        });
      } else if (input.signal.aborted) {
        this.deps.logger.info('turn aborted: every client went away', { threadId: input.threadId });
      } else {
        this.deps.logger.error('turn failed', { threadId: input.threadId, cause: error instanceof Error ? error.message : String(error) });
        emit({ type: 'error', errorText: 'The model failed before finishing this answer. What it produced so far is saved.' });
        emit({ type: 'data-porter-error', data: { message: 'The model failed before finishing this answer.' } });
      }
    }
    await checkpoints.close();
    closeOpenText(draft);
    await this.save(input, draft.message);
    if (stopped(input)) {
      this.deps.logger.info('turn stopped on request', { threadId: input.threadId });
      emit({ type: 'abort', reason: 'stopped' });
    }
    emit({ type: 'finish', finishReason });
    return draft.message;
  }

  /**
   * Approved calls run now, exactly once; decided or expired ones get their final state, so every
   * call the thread holds has an answer before the model speaks again.
   */
  private async settlePendingCalls(
    input: TurnInput,
    earlier: UiMessage[],
    draft: MessageDraft,
    emit: (chunk: UiChunk) => void,
  ): Promise<void> {
    const settle = {
      principal: input.principal,
      ...(input.credentials ? { credentials: input.credentials } : {}),
      signal: input.signal,
      writeData: (part: StreamedData) => emit(part as UiChunk),
    };
    const ran = input.scope?.runId
      ? await this.deps.executeApproved.forRun(input.scope.runId, settle)
      : await this.deps.executeApproved.forThread(input.threadId, settle);
    const outcomes = new Map<string, CallResult>(ran.map(({ loaded, result }) => [loaded.approval.request.toolCallId, result]));

    for (const message of [...earlier, draft.message]) {
      const waiting = message.parts.filter(
        (p): p is ToolPart => isToolPart(p) && p.state === 'approval-requested' && Boolean(p.approval?.id),
      );
      if (waiting.length === 0) continue;
      let changed: UiMessage = message;
      for (const part of waiting) {
        const outcome = outcomes.get(part.toolCallId) ?? (await this.finalOutcome(part.approval!.id, input.principal.subject));
        if (!outcome) continue;
        const chunk = outcomeChunk(part.toolCallId, outcome);
        if (message.id === draft.message.id) {
          emit(chunk);
        } else {
          changed = applyTo(changed, chunk);
          emit({
            type: 'data-porter-tool-result',
            id: `porter-tool-result:${part.toolCallId}`,
            data: { toolCallId: part.toolCallId, approvalId: part.approval!.id, ...resultData(outcome) },
          });
        }
      }
      if (changed !== message) {
        await this.save(input, changed);
        earlier[earlier.indexOf(message)] = changed;
      }
    }
  }

  private save(input: TurnInput, message: UiMessage): Promise<void> {
    return input.scope ? input.scope.save(message) : this.deps.threads.putMessage(input.threadId, message);
  }

  /**
   * An approval that ended without running here: denied, expired, executed elsewhere, or cut short
   * when its executor died (its lease lapsed: read as of now, it is executed and interrupted).
   */
  private async finalOutcome(approvalId: string, subject: string): Promise<CallResult | 'denied' | null> {
    const loaded = await this.deps.approvals.find(approvalId);
    if (!loaded || loaded.approval.subject !== subject) return null;
    // Still pending, approved or running: no outcome yet.
    const outcome: ApprovalOutcome | null = loaded.approval.outcomeAt(this.deps.clock.now().toISOString());
    if (!outcome) return null;
    if (outcome.kind === 'denied') return 'denied';
    if (outcome.kind === 'expired')
      return {
        status: 'failed',
        error: outcome.reason === 'timeout' ? 'The approval expired before anyone answered.' : 'The approval was withdrawn.',
      };
    return outcome.ok ? { status: 'ran', output: outcome.output, because: 'approval' } : { status: 'failed', error: outcome.error };
  }

  private async converse(input: TurnInput, earlier: UiMessage[], draft: MessageDraft, emit: (chunk: UiChunk) => void) {
    const tools = this.deps.tools.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    const known = new Set(earlier.concat(draft.message).flatMap((m) => m.parts.filter(isToolPart).map((p) => p.toolCallId)));
    let budget = this.deps.settings.maxOutputTokens;

    for (let step = 0; step < this.deps.settings.maxSteps; step++) {
      if (stopped(input) || (await input.scope?.shouldStop?.())) return 'other';
      // A step starts while any of the subject's tokens are left (what it spends is counted after).
      await this.deps.meter?.ensureLeft(input.principal, 'tokens');
      emit({ type: 'start-step' });
      const view = modelView(earlier, draft.message, {
        toolOutputCap: this.deps.settings.toolOutputCap,
        ...(this.deps.settings.historyWindow ? { historyWindow: this.deps.settings.historyWindow } : {}),
      });
      const calls: Array<Extract<ModelEvent, { type: 'tool-call' }>> = [];
      let textId: string | null = null;
      let finish: Extract<ModelEvent, { type: 'finish' }> | null = null;
      try {
        for await (const event of this.deps.model.streamStep({
          messages: view,
          tools,
          signal: input.stop ? AbortSignal.any([input.signal, input.stop]) : input.signal,
          ...(this.deps.settings.instructions ? { instructions: this.deps.settings.instructions } : {}),
          ...(budget !== undefined ? { maxOutputTokens: budget } : {}),
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
      if (finish?.totalTokens) await this.deps.meter?.record(input.principal, 'tokens', finish.totalTokens);

      let parked = false;
      for (const call of calls) {
        // Stopped between calls: those already run keep their results, the rest never start.
        if (stopped(input)) break;
        known.add(call.toolCallId);
        emit({ type: 'tool-input-available', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input });
        const result = await this.guarded(call.toolCallId, emit, {
          tool: call.toolName,
          input: call.input,
          toolCallId: call.toolCallId,
          principal: input.principal,
          venue: input.scope?.venue ?? 'chat',
          presence: input.scope?.presence ?? 'present',
          session: input.scope?.session ?? input.threadId,
          ...(input.scope ? {} : { threadId: input.threadId }),
          ...(input.scope?.runId ? { runId: input.scope.runId } : {}),
          ...(input.scope?.automation ? { automation: input.scope.automation } : {}),
          ...(input.scope?.dryRun ? { dryRun: true } : {}),
          ...(input.credentials ? { credentials: input.credentials } : {}),
          signal: input.signal,
          writeData: (part: StreamedData) => emit(part as UiChunk),
        });
        if (result.status === 'parked') {
          parked = true;
          emit({ type: 'tool-approval-request', approvalId: result.parked.approvalId, toolCallId: call.toolCallId });
          emit({ type: 'data-porter-approval', id: `porter-approval:${result.parked.approvalId}`, data: { ...result.parked } });
        } else {
          emit(outcomeChunk(call.toolCallId, result));
        }
      }
      emit({ type: 'finish-step' });

      if (stopped(input)) return 'other';
      if (budget !== undefined && finish?.outputTokens !== undefined) budget -= finish.outputTokens;
      if (parked) return 'tool-calls';
      if (calls.length === 0) return finish?.reason ?? 'stop';
      if (budget !== undefined && budget <= 0) return 'length';
    }
    return 'other';
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

/** A person asked the turn to stop (and nothing harder cut it). */
function stopped(input: TurnInput): boolean {
  return input.stop?.aborted === true && !input.signal.aborted;
}

/** The answer as far as it got, its text parts closed: what a checkpoint saves. */
function closedDraft(draft: MessageDraft): UiMessage {
  const copy: MessageDraft = { message: draft.message, openText: new Map() };
  closeOpenText(copy);
  return copy.message;
}

function outcomeChunk(toolCallId: string, outcome: CallResult | 'denied'): UiChunk {
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

function resultData(outcome: CallResult | 'denied'): Record<string, unknown> {
  if (outcome === 'denied') return { state: 'output-denied' };
  if (outcome.status === 'ran') return { state: 'output-available', output: outcome.output };
  return {
    state: 'output-error',
    errorText: outcome.status === 'failed' ? outcome.error : outcome.status === 'blocked' ? outcome.reason : 'not run',
  };
}

/** Folds a chunk into a message that is not the one streaming (an earlier assistant message). */
function applyTo(message: UiMessage, chunk: UiChunk): UiMessage {
  const draft = draftOf(message);
  applyChunk(draft, chunk);
  return draft.message;
}
