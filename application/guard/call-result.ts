import type { Risk } from '../../domain/guard/risk.js';

/** A parked call as the turn and the door show it. */
export interface ParkedCall {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly risk: Risk;
  readonly preview: string;
}

/** How a guarded call ended. */
export type CallResult =
  /** `dry-run`: not run at all; the output says what it would have done (`{dryRun: true, executed: false, preview, …}`). */
  | { readonly status: 'ran'; readonly output: unknown; readonly because: 'read-class' | 'grant' | 'policy' | 'approval' | 'dry-run' }
  /** `reason`: the domain error's own, when it has one (`connection-required`). */
  | { readonly status: 'failed'; readonly error: string; readonly code?: string; readonly reason?: string }
  | { readonly status: 'parked'; readonly parked: ParkedCall }
  | { readonly status: 'blocked'; readonly reason: string }
  | { readonly status: 'invalid'; readonly issues: ReadonlyArray<string> };
