import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { FeedSet } from '../../ports/feeds.js';

/** What a second message does while a turn runs on its thread (the `concurrentTurns` option). */
export type ConcurrentTurns = 'reject' | 'enqueue' | 'interrupt';

/** How long a turn holds its thread unrenewed; its instance renews it every third of that while it runs. */
export const TURN_LEASE_MS = 15_000;

export interface TurnSettings {
  /** How long a turn (or a place in line) holds its thread unrenewed; renewed every third of it. */
  readonly leaseMs: number;
  readonly concurrentTurns: ConcurrentTurns;
  /** How long a reader following a turn from another instance waits without news before it looks at the turn's lease. */
  readonly followCheckMs: number;
  /** How long a stop waits for the turn to end before it answers anyway. */
  readonly stopWaitMs: number;
  /** How often a waiting stop, or a turn waiting in line, looks again when no wake-up came. */
  readonly pollMs: number;
  /** How long a finished turn's chunks stay in the feed for readers still catching up. */
  readonly lingerMs: number;
}

export const DEFAULT_TURN_SETTINGS: TurnSettings = {
  leaseMs: TURN_LEASE_MS,
  concurrentTurns: 'reject',
  followCheckMs: 2_000,
  stopWaitMs: 10_000,
  pollMs: 1_000,
  lingerMs: 30_000,
};

/** What a turn's chunk feed holds: its chunks, and first, for a turn that continues an answer, what rebuilds it. */
export type TurnEntry = UiChunk | { readonly type: 'prelude'; readonly chunks: ReadonlyArray<UiChunk> };

/**
 * The feeds turns travel on between instances: `chunks` by turn id (what readers elsewhere
 * replay), and `signals`, wake-ups only, by turn id (look: a stop was asked) and by thread id
 * (look: the thread's turn ended or the line moved).
 */
export interface TurnFeeds {
  readonly chunks: FeedSet<TurnEntry>;
  readonly signals: FeedSet<never>;
}

export const TURN_CHUNKS_FEED = 'turn-chunks';
export const TURN_SIGNALS_FEED = 'turn-signals';
