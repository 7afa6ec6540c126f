import type { Principal } from '../../domain/principal.js';
import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { Rewind } from '../../domain/threads/rewind.js';
import type { UseCase } from '../use-case.js';

export interface ThreadSummary {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: string;
}

export interface ThreadDetail {
  readonly id: string;
  readonly title: string;
  readonly messages: ReadonlyArray<UiMessage>;
}

/** The person's answer to an approval, as the AI SDK carries it back on a tool part. */
export interface ApprovalAnswer {
  readonly approvalId: string;
  readonly approved: boolean;
}

export interface TurnRequest {
  readonly principal: Principal;
  readonly threadId: string;
  /** The new user message; absent when the turn continues (approval answers or `continue`). */
  readonly message?: UiMessage;
  readonly answers?: ReadonlyArray<ApprovalAnswer>;
  /** What the turn replaces first: the last answer (regenerate) or the person's last message (edit). */
  readonly rewind?: Rewind;
  /** The person's own credentials, forwarded to the host in present mode. */
  readonly credentials?: { readonly cookie?: string; readonly authorization?: string };
}

/** A turn's chunks as one client receives them. `detach` when the client goes away. */
export interface TurnStream {
  readonly threadId: string;
  readonly chunks: AsyncIterable<UiChunk>;
  detach(): void;
}

export interface ThreadUseCases {
  readonly createThread: UseCase<{ principal: Principal }, { id: string }>;
  readonly listThreads: UseCase<
    { principal: Principal; limit?: number; cursor?: string | null },
    { threads: ReadonlyArray<ThreadSummary>; nextCursor: string | null }
  >;
  /** The caller's threads whose title holds every word of `q`, newest first. */
  readonly searchThreads: UseCase<
    { principal: Principal; q: string; limit?: number; cursor?: string | null },
    { threads: ReadonlyArray<ThreadSummary>; nextCursor: string | null }
  >;
  readonly getThread: UseCase<{ principal: Principal; threadId: string }, ThreadDetail>;
  readonly renameThread: UseCase<{ principal: Principal; threadId: string; title: string }, ThreadSummary>;
  readonly deleteThread: UseCase<{ principal: Principal; threadId: string }, void>;
  readonly runTurn: UseCase<TurnRequest, TurnStream>;
  /** The turn in flight on the thread, on whichever instance runs it, from its first chunk; null when none is. */
  readonly rejoinTurn: UseCase<{ principal: Principal; threadId: string }, TurnStream | null>;
  /** Stops the turn in flight on the thread wherever it runs, and waits for its end; `stopped` is false when there was none. */
  readonly stopTurn: UseCase<{ principal: Principal; threadId: string }, { stopped: boolean }>;
}
