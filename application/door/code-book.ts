import { AuthorizationCode, type AuthorizationCodePrimitives } from '../../domain/door/authorization-code.js';
import { AtomicityUnavailable } from '../../domain/errors.js';
import type { RecordSet, StoredRecord } from '../../ports/store.js';

export interface LoadedCode {
  readonly code: AuthorizationCode;
  readonly record: StoredRecord<AuthorizationCodePrimitives>;
}

/** Authorization codes by digest. Redemption is a claim: of racing redeemers exactly one wins. */
export class AuthorizationCodeBook {
  constructor(private readonly records: RecordSet<AuthorizationCodePrimitives>) {}

  async issue(code: AuthorizationCode): Promise<void> {
    const props = code.toPrimitives();
    await this.records.put({ id: props.id, data: props, refs: { client: props.ask.clientId } });
  }

  async find(id: string): Promise<LoadedCode | null> {
    const record = await this.records.get(id);
    return record ? { code: AuthorizationCode.fromPrimitives(record.data), record } : null;
  }

  async redeem(loaded: LoadedCode, familyId: string): Promise<boolean> {
    if (!this.records.claim) throw new AtomicityUnavailable('atomic claims on authorization codes');
    return this.records.claim(loaded.record, { data: loaded.code.redeem(familyId).toPrimitives() });
  }
}
