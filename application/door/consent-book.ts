import { DoorConsent, type DoorConsentPrimitives } from '../../domain/door/door-consent.js';
import { AtomicityUnavailable } from '../../domain/errors.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { RecordSet } from '../../ports/store.js';

/**
 * One consent per person and client. Its evidence is minted once, so grants a person remembers
 * through a client keep covering that client's later sessions; two racing first consents agree on
 * one evidence through insertIfAbsent.
 */
export class DoorConsentBook {
  constructor(
    private readonly records: RecordSet<DoorConsentPrimitives>,
    private readonly secrets: DoorSecrets,
  ) {}

  async ensure(subject: string, clientId: string, scope: string, at: string): Promise<DoorConsent> {
    const id = `${clientId}:${this.secrets.digest(subject)}`;
    const existing = await this.records.get(id);
    if (existing) return DoorConsent.fromPrimitives(existing.data);
    if (!this.records.atomic) throw new AtomicityUnavailable('insertIfAbsent on door consents');
    const consent = DoorConsent.grant({ id, subject, clientId, evidence: `consent:${this.secrets.mint()}`, scope, grantedAt: at });
    const inserted = await this.records.atomic.insertIfAbsent({ id, data: consent.toPrimitives(), refs: { subject, client: clientId } });
    if (inserted) return consent;
    const winner = await this.records.get(id);
    if (!winner) throw new Error('a door consent vanished while it was being granted');
    return DoorConsent.fromPrimitives(winner.data);
  }
}
