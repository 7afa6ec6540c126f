import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { GrantBook } from './grant-book.js';

/** `DELETE /grants/:id`: revoked at once; revoking twice is a no-op. */
export class RevokeGrant implements UseCase<{ principal: Principal; grantId: string }, void> {
  constructor(
    private readonly grants: GrantBook,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(input: { principal: Principal; grantId: string }): Promise<void> {
    const { grant } = await this.grants.ownedBy(input.principal.subject, input.grantId);
    if (!grant.active) return;
    await this.grants.save(grant.revoke(this.clock.now().toISOString()));
    await this.audit.record({
      subject: grant.subject,
      action: 'grant.revoked',
      outcome: 'revoked',
      details: { grantId: grant.id, tool: grant.toPrimitives().tool },
    });
  }
}
