import type { UseCase } from '../../ports/use-case.js';
import type { TokenGrant, TokenRequest } from '../../ports/use-cases/door.js';

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
