import { aggregateOf } from '../aggregate.js';

export interface DoorConsentPrimitives {
  readonly id: string;
  readonly subject: string;
  readonly clientId: string;
  /**
   * What door calls carry as the guard's `evidence`: grants remembered through the door cover only
   * calls carrying the same. Random, minted once per person and client.
   */
  readonly evidence: string;
  readonly scope: string;
  readonly grantedAt: string;
}

/** A person's yes to one door client acting for them through MCP. */
export class DoorConsent extends aggregateOf<DoorConsentPrimitives>().reading('id', 'evidence', 'subject') {
  private constructor(props: DoorConsentPrimitives) {
    super(props);
  }

  static grant(props: DoorConsentPrimitives): DoorConsent {
    return new DoorConsent(props);
  }

  static fromPrimitives(props: DoorConsentPrimitives): DoorConsent {
    return new DoorConsent(props);
  }
}
