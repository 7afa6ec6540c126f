import type { Principal } from '../../domain/principal.js';
import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { Rewind } from '../../domain/threads/rewind.js';
import type { MessageVersions } from '../../domain/threads/message-versions.js';
import type { Highlight } from '../../domain/search/text-query.js';
import type { UseCase } from '../use-case.js';

export interface ThreadSummary {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: string;
}

/** Where a search found its words in a thread: a stretch of the title or of one message. */
export interface ThreadMatch {
  /** Plain text (never markup), cut around the match, with `…` where the passage goes on. */
  readonly snippet: string;
  /** The matched words in `snippet`: UTF-16 offsets, end exclusive. */
  readonly highlights: ReadonlyArray<Highlight>;
  /** The message the snippet is from; absent when it is from the title. */
  readonly messageId?: string;
}

export interface ThreadSearchHit extends ThreadSummary {
  readonly match: ThreadMatch;
}

export interface ThreadDetail {
  readonly id: string;
  readonly title: string;
  readonly messages: ReadonlyArray<UiMessage>;
  /** The shown messages that have other versions (kept by regenerate or edit): which is shown, how many there are. */
  readonly versions: ReadonlyArray<MessageVersions>;
}

/** Shows another version of a message that has versions: the thread's messages from it on become that version's. */
export interface ShowVersionRequest {
  readonly principal: Principal;
  readonly threadId: string;
  /** The shown message whose versions to switch between (its stored id, or the id the client sent it under). */
  readonly messageId: string;
  /** Which version to show, from 0. */
  readonly index: number;
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
  /** The caller's threads whose title or messages hold every word of `q`, best match first, with a snippet. */
  readonly searchThreads: UseCase<
    { principal: Principal; q: string; limit?: number; cursor?: string | null },
    { threads: ReadonlyArray<ThreadSearchHit>; nextCursor: string | null }
  >;
  readonly getThread: UseCase<{ principal: Principal; threadId: string }, ThreadDetail>;
  /** Shows another version of a message; 409 while a turn is in flight on the thread. */
  readonly showVersion: UseCase<ShowVersionRequest, ThreadDetail>;
  readonly renameThread: UseCase<{ principal: Principal; threadId: string; title: string }, ThreadSummary>;
  readonly deleteThread: UseCase<{ principal: Principal; threadId: string }, void>;
  readonly runTurn: UseCase<TurnRequest, TurnStream>;
  /** The turn in flight on the thread, on whichever instance runs it, from its first chunk; null when none is. */
  readonly rejoinTurn: UseCase<{ principal: Principal; threadId: string }, TurnStream | null>;
  /** Stops the turn in flight on the thread wherever it runs, and waits for its end; `stopped` is false when there was none. */
  readonly stopTurn: UseCase<{ principal: Principal; threadId: string }, { stopped: boolean }>;
}
