import { DoorConsent, type DoorConsentPrimitives } from '../../domain/door/door-consent.js';
import { AtomicityUnavailable } from '../../domain/errors.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives } from '../shared/aggregate-book.js';
import { doorConsentShape } from './stored-shapes.js';

/**
 * One consent per person and client. Its evidence is minted once, so grants a person remembers
 * through a client keep covering that client's later sessions; two racing first consents agree on
 * one evidence through insertIfAbsent.
 */
export class DoorConsentBook extends AggregateBook<'consent', DoorConsent, DoorConsentPrimitives> {
  constructor(
    records: RecordSet<DoorConsentPrimitives>,
    private readonly secrets: DoorSecrets,
  ) {
    super(records, {
      collection: 'door-consents',
      key: 'consent',
      noun: 'Door consent',
      schema: doorConsentShape,
      ...asPrimitives(DoorConsent),
      refsOf: (props) => ({ subject: props.subject, client: props.clientId }),
      ownerOf: (consent) => consent.toPrimitives().subject,
    });
  }

  async ensure(subject: string, clientId: string, scope: string, at: string): Promise<DoorConsent> {
    const id = `${clientId}:${this.secrets.digest(subject)}`;
    const existing = await this.find(id);
    if (existing) return existing.consent;
    if (!this.records.atomic) throw new AtomicityUnavailable('insertIfAbsent on door consents');
    const consent = DoorConsent.grant({ id, subject, clientId, evidence: `consent:${this.secrets.mint()}`, scope, grantedAt: at });
    const props = consent.toPrimitives();
    const inserted = await this.records.atomic.insertIfAbsent({ id, data: props, refs: this.mapping.refsOf(props) });
    if (inserted) return consent;
    const winner = await this.find(id);
    if (!winner) throw new Error('a door consent vanished while it was being granted');
    return winner.consent;
  }
}
