import type { AuditEvent } from '../domain/audit-event.js';

/** Where audit events go. Writers must tolerate a failing sink (see application/audit). */
export interface AuditSink {
  write(event: AuditEvent): Promise<void>;
}

/** Reads a subject's audit events, newest first. */
export interface AuditLog {
  list(
    subject: string,
    query: { limit?: number; cursor?: string | null },
  ): Promise<{
    events: ReadonlyArray<AuditEvent>;
    nextCursor: string | null;
  }>;
}
