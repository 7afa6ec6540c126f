import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { AuditSink } from '../../ports/audit.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';

/** How long a call waits on the audit sink before going on without it. */
export const AUDIT_WAIT_MS = 2_000;

/** What AuditTrail is built from. */
export interface AuditTrailDeps {
  readonly sink: AuditSink;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly waitMs?: number;
}

/**
 * How use cases write audit events. A failing sink is logged and swallowed, and a sink that hangs
 * is waited on for at most `waitMs`: the audit trail never fails or blocks the host's call. (The
 * write carries on in the background; only the caller stops waiting.)
 */
export class AuditTrail {
  private readonly waitMs: number;

  constructor(private readonly deps: AuditTrailDeps) {
    this.waitMs = deps.waitMs ?? AUDIT_WAIT_MS;
  }

  async record(event: NewAuditEvent): Promise<void> {
    const lost = (cause: string) =>
      this.deps.logger.error('audit sink failed; the event was not recorded', { action: event.action, outcome: event.outcome, cause });
    const write = this.deps.sink.write({ id: this.deps.ids.mint('audit'), at: this.deps.clock.now().toISOString(), ...event }).then(
      () => 'written' as const,
      (error: unknown) => {
        lost(error instanceof Error ? error.message : String(error));
        return 'failed' as const;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.waitMs);
      timer.unref();
    });
    const outcome = await Promise.race([write, waited]);
    clearTimeout(timer);
    if (outcome === 'late')
      this.deps.logger.warn('audit sink is slow; the call went on without waiting for it', {
        action: event.action,
        outcome: event.outcome,
        waitedMs: this.waitMs,
      });
  }
}
