/** One entry of the audit trail. Details hold no secrets: callers pass facts, never credentials. */
export interface AuditEvent {
  readonly id: string;
  readonly at: string;
  /** Whose activity this is: a host subject or a reserved one such as `porter:webhook:<source>`. */
  readonly subject: string;
  /** What happened, e.g. `webhook.verification-failed`, `act-as.refused`. */
  readonly action: string;
  /** How it ended, e.g. `act-as-subject-mismatch`, `present-credentials-not-forwarded`. */
  readonly outcome: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export type NewAuditEvent = Omit<AuditEvent, 'id' | 'at'>;
