import { DeliveryRefused, type DeliveryRefusal } from '../../domain/webhooks/delivery.js';
import { webhookSubject } from '../../domain/principal.js';
import type { AuditTrail } from '../audit/audit-trail.js';

/**
 * Every refused delivery leaves exactly one audit event, filed under `porter:webhook:<source>`
 * (audit readers match that prefixed form). The details name the check that failed; the wire
 * answer does not.
 */
export class WebhookRefusals {
  constructor(private readonly audit: AuditTrail) {}

  async refuse(source: string, reason: DeliveryRefusal): Promise<DeliveryRefused> {
    await this.audit.record({
      subject: webhookSubject(source),
      action: 'webhook.verification-failed',
      outcome: reason,
      details: { source },
    });
    return new DeliveryRefused(reason);
  }
}
