import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { ApprovalBook } from './approval-book.js';

/** What ExecutionLease is built from. */
export interface ExecutionLeaseDeps {
  readonly approvals: ApprovalBook;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly approvalId: string;
  readonly leaseMs: number;
  readonly callerSignal: AbortSignal;
}

/**
 * An executor's hold on an approved call while its tool runs. The lease is short and renewed every
 * third of its length (a claim on the stored approval, so it holds across instances), which keeps
 * a long tool's call executing and lets a dead executor's call read as interrupted soon after.
 * When a renewal finds the lease already lapsed, readers have been told the call was interrupted:
 * `signal` aborts so the tool stops what it is doing.
 */
export class ExecutionLease {
  private readonly lost = new AbortController();
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private renewing: Promise<void> | null = null;
  private released = false;
  /** Aborts when the caller's signal does or the lease is lost. */
  readonly signal: AbortSignal;

  constructor(private readonly deps: ExecutionLeaseDeps) {
    const { callerSignal } = deps;
    this.signal = AbortSignal.any([callerSignal, this.lost.signal]);
    this.heartbeat = setInterval(() => this.beat(), Math.max(10, Math.floor(this.deps.leaseMs / 3)));
    // A call in flight never keeps the process alive on its own.
    this.heartbeat.unref?.();
  }

  /** Stops renewing and waits for a renewal in flight, so the executor's next write reads after it. */
  async release(): Promise<void> {
    this.released = true;
    clearInterval(this.heartbeat);
    await this.renewing;
  }

  private beat(): void {
    if (this.renewing || this.released) return;
    this.renewing = this.renew().finally(() => {
      this.renewing = null;
    });
  }

  private async renew(): Promise<void> {
    try {
      const current = await this.deps.approvals.find(this.deps.approvalId);
      if (this.released) return;
      const renewed = current?.approval.renewExecution(this.deps.clock.now().toISOString(), this.deps.leaseMs);
      if (!current || !renewed) {
        this.deps.logger.warn('an approved call outlived its execution lease; it reads as interrupted', {
          approvalId: this.deps.approvalId,
        });
        clearInterval(this.heartbeat);
        this.lost.abort(new Error('The execution lease lapsed: the call reads as interrupted'));
        return;
      }
      // A lost claim means the record moved under us; the next beat reads it again.
      await this.deps.approvals.swap(current, renewed);
    } catch (error) {
      this.deps.logger.warn('renewing an execution lease failed; the next beat tries again', {
        approvalId: this.deps.approvalId,
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
