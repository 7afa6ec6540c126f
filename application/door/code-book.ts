import { AuthorizationCode, type AuthorizationCodePrimitives } from '../../domain/door/authorization-code.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { authorizationCodeShape } from './stored-shapes.js';

export type LoadedCode = Loaded<'code', AuthorizationCode, AuthorizationCodePrimitives>;

/** Authorization codes by digest. Redemption is a swap: of racing redeemers exactly one wins. */
export class AuthorizationCodeBook extends AggregateBook<'code', AuthorizationCode, AuthorizationCodePrimitives> {
  constructor(records: RecordSet<AuthorizationCodePrimitives>) {
    super(records, {
      collection: 'door-codes',
      key: 'code',
      noun: 'Authorization code',
      schema: authorizationCodeShape,
      ...asPrimitives(AuthorizationCode),
      refsOf: (props) => ({ client: props.ask.clientId }),
      ownerOf: (code) => code.toPrimitives().subject,
    });
  }

  /** The redeemed code, or null for every redeemer but the one that won. */
  redeem(loaded: LoadedCode, familyId: string): Promise<LoadedCode | null> {
    return this.swap(loaded, loaded.code.redeem(familyId));
  }
}
