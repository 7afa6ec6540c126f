import { applyChunk, closeOpenText, draftOf, type MessageDraft, type UiChunk } from '../../domain/threads/ui-chunk.js';
import { modelView } from '../../domain/threads/model-view.js';
import { isToolPart, producedAnything, textOf, toolNameOf, type ToolPart, type UiMessage } from '../../domain/threads/ui-message.js';
import { RunCannotResume, runsAgainAfterInterruption } from '../../domain/runs/interrupted-call.js';
import { INSTANCE_STOPPED, interrupted, uninterrupted, type Interruption } from '../../domain/threads/interruption.js';
import type { Principal } from '../../domain/principal.js';
import type { ApprovalOutcome } from '../../domain/guard/approval.js';
import type { Presence, Venue } from '../../domain/guard/risk.js';
import type { CallingAutomation } from '../../domain/guard/tool-call.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Model, ModelEvent } from '../../ports/model.js';
import type { StreamedData, StreamedSource, ToolRegistry } from '../../ports/tool-registry.js';
import type { ApprovalBook } from '../guard/approval-book.js';
import type { CallResult } from '../guard/call-result.js';
import type { ExecuteApproved } from '../guard/execute-approved.js';
import type { GuardCall } from '../guard/guard-call.js';
import type { PresentCredentials } from '../guard/host-access.js';
import type { ChatSettings } from './chat-settings.js';
import { DRAFT_CHECKPOINT_MS, DraftCheckpoints } from './draft-checkpoints.js';
import type { KeptAnswers } from './kept-answers.js';
import type { ThreadBook } from './thread-book.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import { LimitReached } from '../../domain/errors.js';
import type { ModelAttachments } from '../files/model-attachments.js';

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
  /** The thread's owner as the turn found it: the answer's words are indexed under it without a read. */
  readonly owner?: string;
  /** The thread held no message before this turn's: no turn parked a call in it, so none waits to run. */
  readonly fresh?: boolean;
}

const MODEL_FAILED = 'The model failed before finishing this answer.';
const GIVEN_UP: Interruption = { reason: 'given-up', message: 'This answer was given up before it finished.' };

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
  /** What the person's memories say about their message, added to the instructions; absent, nothing is recalled. */
  readonly recall?: TurnRecall;
  /** Shows the model the thread's attached files in its provider's form; absent, file parts pass as they are. */
  readonly attachments?: ModelAttachments;
  /** Keeps a chat turn's finished answer the store could not take and saves it later; absent, such a turn rejects. */
  readonly kept?: KeptAnswers;
}

/** Recalls what bears on the person's message (application/memory/recall-memories.ts): a block for the instructions, or null. */
export interface TurnRecall {
  forTurn(principal: Principal, message: string): Promise<string | null>;
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
    // An answer carried on is no longer interrupted: this turn finishes it (or marks it again).
    const draft = draftOf(
      input.continuing ? uninterrupted(input.continuing) : { id: this.deps.ids.mint('message'), role: 'assistant', parts: [] },
    );
    const earlier = input.messages.filter((m) => m.id !== draft.message.id);
    // The answer is saved as it streams, so an instance that dies mid-turn loses only the last moments.
    // A chat answer's checkpoint is saved marked as cut short: only the final save says it finished.
    const checkpoints = new DraftCheckpoints(
      () => this.save(input, input.scope ? closedDraft(draft) : interrupted(closedDraft(draft), INSTANCE_STOPPED)),
      this.deps.settings.checkpointMs ?? DRAFT_CHECKPOINT_MS,
      this.deps.logger,
      { threadId: input.threadId },
    );
    const emit = (chunk: UiChunk) => {
      // A source the answer cites already (two searches finding one passage) is not sent again.
      if (citedAlready(draft.message, chunk)) return;
      applyChunk(draft, chunk);
      checkpoints.touch();
      input.emit(chunk);
    };
    // A run records each tool call before it starts and once it ends, so a retry after its
    // instance died knows which calls ran (and resumes after them) and which may have.
    const record = input.scope?.runId ? () => checkpoints.now() : null;
    emit({ type: 'start', messageId: draft.message.id });
    // Recalled while approved calls settle: the model's first step needs it, nothing before does.
    const recalled = this.recalled(input, earlier);
    let finishReason: 'stop' | 'length' | 'tool-calls' | 'error' | 'other';
    // Why the answer did not finish, marked on what is saved (chat turns; a run keeps its own states).
    let cut: Interruption | null = null;
    try {
      if (!input.fresh) await this.settlePendingCalls(input, earlier, draft, emit);
      const parked = record ? await this.resumeInterrupted(input, earlier, draft, emit, record) : false;
      finishReason = parked ? 'tool-calls' : await this.converse(input, earlier, draft, emit, recalled, record);
    } catch (error) {
      finishReason = 'error';
      input.scope?.onError?.(error);
      if (stopped(input)) {
        finishReason = 'other';
      } else if (error instanceof RunCannotResume) {
        this.deps.logger.warn('a run cannot resume after its instance died', { threadId: input.threadId, tool: error.tool });
        emit({ type: 'error', errorText: error.message });
      } else if (error instanceof LimitReached) {
        // A budget or breaker ran out mid-way: the stream says which and when it frees.
        this.deps.logger.info('turn refused by a budget', { threadId: input.threadId, budget: error.budget });
        cut = { reason: 'limit-reached', message: error.message };
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
        cut = GIVEN_UP;
      } else {
        this.deps.logger.error('turn failed', { threadId: input.threadId, cause: error instanceof Error ? error.message : String(error) });
        // Only what exists is said to be saved: a model down before its first word produced nothing.
        const kept = producedAnything(draft.message) ? ' What it produced so far is saved.' : '';
        // The part first: a client stops reading at the stream's error, and the part is what it shows.
        cut = { reason: 'model-failed', message: MODEL_FAILED };
        emit({ type: 'data-porter-error', data: { message: MODEL_FAILED } });
        emit({ type: 'error', errorText: `${MODEL_FAILED}${kept}` });
      }
    }
    await checkpoints.close();
    closeOpenText(draft);
    if (cut && !input.scope) draft.message = interrupted(draft.message, cut);
    const unsaved = await this.saveAnswer(input, draft.message);
    if (unsaved) {
      // Nothing says success for an answer the store does not hold.
      // No mark of its own: what the store keeps is this answer saved later, or its last checkpoint (marked).
      finishReason = 'error';
      emit({ type: 'data-porter-error', data: { message: unsaved } });
      emit({ type: 'error', errorText: unsaved });
    }
    if (stopped(input)) {
      this.deps.logger.info('turn stopped on request', { threadId: input.threadId });
      emit({ type: 'abort', reason: 'stopped' });
    }
    // The reader's copy of the answer carries the mark the stored one does (the AI SDK merges it into the message's metadata).
    emit({ type: 'finish', finishReason, ...(cut && !input.scope ? { messageMetadata: { interrupted: cut } } : {}) });
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

  /** The finished answer saved (a chat turn's kept and retried while the store is away); null once saved, else why not. */
  private async saveAnswer(input: TurnInput, message: UiMessage): Promise<string | null> {
    if (input.scope || !this.deps.kept) return this.save(input, message).then(() => null);
    return this.deps.kept.save(() => this.save(input, message), input.threadId);
  }

  private save(input: TurnInput, message: UiMessage): Promise<void> {
    return input.scope ? input.scope.save(message) : this.deps.threads.putMessage(input.threadId, message, undefined, input.owner);
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

  private async converse(
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
      await this.deps.meter?.ensureLeft(input.principal, 'tokens');
      emit({ type: 'start-step' });
      const window = modelView(earlier, draft.message, {
        toolOutputCap: this.deps.settings.toolOutputCap,
        ...(this.deps.settings.historyWindow ? { historyWindow: this.deps.settings.historyWindow } : {}),
      });
      const view = showFiles ? await showFiles(window) : window;
      const calls: Array<Extract<ModelEvent, { type: 'tool-call' }>> = [];
      let textId: string | null = null;
      let finish: Extract<ModelEvent, { type: 'finish' }> | null = null;
      try {
        for await (const event of this.deps.model.streamStep({
          messages: view,
          tools,
          signal: input.stop ? AbortSignal.any([input.signal, input.stop]) : input.signal,
          ...(instructions ? { instructions } : {}),
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
  private async recalled(input: TurnInput, earlier: ReadonlyArray<UiMessage>): Promise<string | null> {
    if (!this.deps.recall) return null;
    const asked = earlier.findLast((message) => message.role === 'user');
    if (!asked) return null;
    try {
      return await this.deps.recall.forTurn(input.principal, textOf(asked));
    } catch (error) {
      this.deps.logger.warn('memories could not be recalled; the turn goes on without them', {
        threadId: input.threadId,
        cause: error instanceof Error ? error.message : String(error),
      });
      return null;
    }
  }

  /**
   * A run's attempt that was cut short (its instance died) left the calls it had started without
   * a recorded end: they may or may not have run. A tool that may run twice (idempotent, or one
   * that changes nothing) runs again now, through the guard; any other ends the run saying it
   * cannot resume (RunCannotResume), its call marked so. True when a call parked for approval.
   */
  private async resumeInterrupted(
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
      ...(input.scope ? {} : { threadId: input.threadId }),
      ...(input.scope?.runId ? { runId: input.scope.runId } : {}),
      ...(input.scope?.automation ? { automation: input.scope.automation } : {}),
      ...(input.scope?.dryRun ? { dryRun: true } : {}),
      ...(input.credentials ? { credentials: input.credentials } : {}),
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

/** True for a source chunk whose source the message already cites. */
function citedAlready(message: UiMessage, chunk: UiChunk): boolean {
  if (chunk.type !== 'source-document' && chunk.type !== 'source-url') return false;
  return message.parts.some((part) => part.type === chunk.type && (part as { sourceId?: unknown }).sourceId === chunk.sourceId);
}

/** The host's instructions and what was recalled, as one system text (or none). */
function joined(instructions: string | undefined, recalled: string | null): string | undefined {
  if (!recalled) return instructions;
  return instructions ? `${instructions}\n\n${recalled}` : recalled;
}

/** The tools whose output (or error text) the model is shown in `view`: text that did not come from the person. */
function outputsIn(view: ReadonlyArray<UiMessage>): string[] {
  const names = new Set<string>();
  for (const message of view)
    for (const part of message.parts)
      if (isToolPart(part) && (part.state === 'output-available' || part.state === 'output-error')) names.add(toolNameOf(part));
  return [...names];
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
