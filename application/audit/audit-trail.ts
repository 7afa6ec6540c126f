import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { AuditSink } from '../../ports/audit.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';

/**
 * How use cases write audit events. A failing sink is logged and swallowed: the audit trail never
 * fails or blocks the host's call.
 */
export class AuditTrail {
  constructor(
    private readonly sink: AuditSink,
    private readonly ids: Ids,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async record(event: NewAuditEvent): Promise<void> {
    try {
      await this.sink.write({ id: this.ids.mint('audit'), at: this.clock.now().toISOString(), ...event });
    } catch (error) {
      this.logger.error('audit sink failed; the event was not recorded', {
        action: event.action,
        outcome: event.outcome,
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
