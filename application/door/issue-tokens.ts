import type { Clock } from '../../ports/clock.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TokenGrant, TokenRequest } from '../../ports/use-cases/door.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { DoorClientLookup } from './door-clients.js';
import type { DoorSettings } from './door-settings.js';
import type { TokenFamilyBook } from './token-family-book.js';
import type { TokenMint } from './token-mint.js';

/** What either grant is built from: the client it authenticates, the family it mints into, the trail it records. */
export interface TokenGrantDeps {
  readonly clients: DoorClientLookup;
  readonly families: TokenFamilyBook;
  readonly mint: TokenMint;
  readonly secrets: DoorSecrets;
  readonly settings: DoorSettings;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

type Grant<G extends TokenRequest['grantType']> = UseCase<Extract<TokenRequest, { grantType: G }>, TokenGrant>;

/** `POST {wire}/mcp/token`: one endpoint, two grants. */
export class IssueTokens implements UseCase<TokenRequest, TokenGrant> {
  constructor(
    private readonly redeemCode: Grant<'authorization_code'>,
    private readonly rotateRefreshToken: Grant<'refresh_token'>,
  ) {}

  execute(request: TokenRequest): Promise<TokenGrant> {
    return request.grantType === 'authorization_code' ? this.redeemCode.execute(request) : this.rotateRefreshToken.execute(request);
  }
}
