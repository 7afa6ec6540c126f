import { applyChunk, closeOpenText, draftOf, type MessageDraft, type UiChunk } from '../../domain/threads/ui-chunk.js';
import { producedAnything, type UiMessage } from '../../domain/threads/ui-message.js';
import { RunCannotResume } from '../../domain/runs/interrupted-call.js';
import { INSTANCE_STOPPED, interrupted, uninterrupted, type Interruption } from '../../domain/threads/interruption.js';
import { LimitReached } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Model } from '../../ports/model.js';
import type { ToolRegistry } from '../../ports/tool-registry.js';
import type { ApprovalBook } from '../guard/approval-book.js';
import type { ExecuteApproved } from '../guard/execute-approved.js';
import type { GuardCall } from '../guard/guard-call.js';
import type { ModelAttachments } from '../files/model-attachments.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import type { ChatSettings } from './chat-settings.js';
import { DRAFT_CHECKPOINT_MS, DraftCheckpoints } from './draft-checkpoints.js';
import type { KeptAnswers } from './kept-answers.js';
import { PendingCalls } from './pending-calls.js';
import type { ThreadBook } from './thread-book.js';
import { stopped, type TurnInput } from './turn-input.js';
import { TurnSteps, type TurnRecall } from './turn-steps.js';
import { TurnToolCalls } from './turn-tool-calls.js';
import { defined } from '../../domain/defined.js';

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
  /** The subject's token budget, checked before each step and charged after it (`NoUsageMeter`: nothing is metered). */
  readonly meter: UsageMeter;
  /** What the person's memories say about their message, added to the instructions; absent, nothing is recalled. */
  readonly recall?: TurnRecall;
  /** Shows the model the thread's attached files in its provider's form; absent, file parts pass as they are. */
  readonly attachments?: ModelAttachments;
  /** Keeps a chat turn's finished answer the store could not take and saves it later; absent, such a turn rejects. */
  readonly kept?: KeptAnswers;
}

/**
 * One turn of the agent loop. First every approved call of the thread runs (exactly once) and its
 * output is shown; then the model speaks step by step, every tool call it asks for passes the
 * guard, and the turn ends when the model is done, when a call is parked for approval, or when
 * the output budget is spent. What was produced is saved however the turn ends.
 */
export class AgentTurn {
  private readonly pending: PendingCalls;
  private readonly calls: TurnToolCalls;
  private readonly steps: TurnSteps;

  constructor(private readonly deps: AgentTurnDeps) {
    this.pending = new PendingCalls(deps);
    this.calls = new TurnToolCalls(deps);
    this.steps = new TurnSteps(deps, this.calls);
  }

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
    const recalled = this.steps.recalled(input, earlier);
    let finishReason: 'stop' | 'length' | 'tool-calls' | 'error' | 'other';
    // Why the answer did not finish, marked on what is saved (chat turns; a run keeps its own states).
    let cut: Interruption | null = null;
    try {
      if (!input.fresh) await this.pending.answer(input, earlier, draft, emit, (message) => this.save(input, message));
      const parked = record ? await this.calls.resumeInterrupted(input, earlier, draft, emit, record) : false;
      finishReason = parked ? 'tool-calls' : await this.steps.converse(input, earlier, draft, emit, recalled, record);
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
            ...defined({ retryAfter: error.retryAfterSeconds ?? undefined }),
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
    emit({ type: 'finish', finishReason, ...defined({ messageMetadata: cut && !input.scope ? { interrupted: cut } : undefined }) });
    return draft.message;
  }

  /** The finished answer saved (a chat turn's kept and retried while the store is away); null once saved, else why not. */
  private async saveAnswer(input: TurnInput, message: UiMessage): Promise<string | null> {
    if (input.scope || !this.deps.kept) return this.save(input, message).then(() => null);
    return this.deps.kept.save(() => this.save(input, message), input.threadId);
  }

  private save(input: TurnInput, message: UiMessage): Promise<void> {
    return input.scope ? input.scope.save(message) : this.deps.threads.putMessage(input.threadId, message, undefined, input.owner);
  }
}

/** True for a source chunk whose source the message already cites. */
function citedAlready(message: UiMessage, chunk: UiChunk): boolean {
  if (chunk.type !== 'source-document' && chunk.type !== 'source-url') return false;
  return message.parts.some((part) => part.type === chunk.type && (part as { sourceId?: unknown }).sourceId === chunk.sourceId);
}

/** The answer as far as it got, its text parts closed: what a checkpoint saves. */
function closedDraft(draft: MessageDraft): UiMessage {
  const copy: MessageDraft = { message: draft.message, openText: new Map() };
  closeOpenText(copy);
  return copy.message;
}
