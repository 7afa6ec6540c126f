import { applyChunk, draftOf, type MessageDraft, type UiChunk } from '../../domain/threads/ui-chunk.js';
import { isToolPart, type ToolPart, type UiMessage } from '../../domain/threads/ui-message.js';
import type { ApprovalOutcome } from '../../domain/guard/approval.js';
import type { Clock } from '../../ports/clock.js';
import type { StreamedData } from '../../ports/tool-registry.js';
import type { ApprovalBook } from '../guard/approval-book.js';
import type { CallResult } from '../guard/call-result.js';
import type { ExecuteApproved } from '../guard/execute-approved.js';
import type { TurnInput } from './turn-input.js';
import { outcomeChunk } from './turn-tool-calls.js';
import { defined } from '../../domain/defined.js';

/** What PendingCalls is built from (AgentTurn's deps). */
export interface PendingCallsDeps {
  readonly executeApproved: ExecuteApproved;
  readonly approvals: ApprovalBook;
  readonly clock: Clock;
}

/**
 * The calls a thread (or a run) left waiting for approval, answered at a turn's start: approved ones
 * run, decided or expired ones get their final state, shown on the message that asked for them.
 */
export class PendingCalls {
  constructor(private readonly deps: PendingCallsDeps) {}

  /**
   * Approved calls run now, exactly once; decided or expired ones get their final state, so every
   * call the thread holds has an answer before the model speaks again.
   */
  async answer(
    input: TurnInput,
    earlier: UiMessage[],
    draft: MessageDraft,
    emit: (chunk: UiChunk) => void,
    save: (message: UiMessage) => Promise<void>,
  ): Promise<void> {
    const settle = {
      principal: input.principal,
      ...defined({ credentials: input.credentials }),
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
        await save(changed);
        earlier[earlier.indexOf(message)] = changed;
      }
    }
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
