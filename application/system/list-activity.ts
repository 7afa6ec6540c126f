import type { AuditLog } from '../../ports/audit.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ActivityPage, ActivityQuery } from '../../ports/use-cases/system.js';

/** `GET /activity`: the caller's own audit events, newest first. */
export class ListActivity implements UseCase<ActivityQuery, ActivityPage> {
  constructor(private readonly log: AuditLog) {}

  async execute(query: ActivityQuery): Promise<ActivityPage> {
    return this.log.list(query.principal.subject, { limit: query.limit, cursor: query.cursor ?? null });
  }
}
