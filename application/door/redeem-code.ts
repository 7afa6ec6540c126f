import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import { namesTheDoor } from '../../domain/door/resource-indicator.js';
import { isCodeVerifier } from '../../domain/door/pkce.js';
import { TokenFamily } from '../../domain/door/token-family.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TokenGrant, TokenRequest } from '../../ports/use-cases/door.js';
import { authenticateClient } from './client-authentication.js';
import type { AuthorizationCodeBook } from './code-book.js';
import type { TokenGrantDeps } from './issue-tokens.js';

type CodeRequest = Extract<TokenRequest, { grantType: 'authorization_code' }>;

const INVALID_CODE = 'The authorization code is not valid';

/** What RedeemCode is built from: a grant's parts and the codes it redeems. */
export interface RedeemCodeDeps extends TokenGrantDeps {
  readonly codes: AuthorizationCodeBook;
}

/**
 * `grant_type=authorization_code`: the code, its client, its redirect URI and the PKCE verifier must
 * all match. Redemption is a claim, so of two racing redeemers one gets tokens; a code presented
 * after it was redeemed revokes the tokens it gave (RFC 6749 §4.1.2).
 */
export class RedeemCode implements UseCase<CodeRequest, TokenGrant> {
  constructor(private readonly deps: RedeemCodeDeps) {}

  async execute(request: CodeRequest): Promise<TokenGrant> {
    const client = await authenticateClient(this.deps.clients, this.deps.secrets, request.client, 401);
    if (!request.code) throw new OAuthRefusal('invalid_request', 'code is required');
    if (!request.redirectUri) throw new OAuthRefusal('invalid_request', 'redirect_uri is required');
    if (!request.codeVerifier) throw new OAuthRefusal('invalid_request', 'code_verifier is required (PKCE)');

    const loaded = await this.deps.codes.find(this.deps.secrets.digest(request.code));
    if (!loaded || loaded.code.ask.clientId !== client.id) throw new OAuthRefusal('invalid_grant', INVALID_CODE);
    const { code } = loaded;
    const now = this.deps.clock.now();
    if (code.redeemedFor) {
      await this.deps.families.revoke(code.redeemedFor, now.toISOString(), 'code-reused');
      await this.deps.audit.record({
        subject: code.subject,
        action: 'door.code-reused',
        outcome: 'family-revoked',
        details: { clientId: client.id },
      });
      throw new OAuthRefusal('invalid_grant', 'The authorization code was already used; the tokens it gave are revoked');
    }
    if (code.isExpiredAt(now.toISOString())) throw new OAuthRefusal('invalid_grant', 'The authorization code has expired');
    if (code.ask.redirectUri !== request.redirectUri)
      throw new OAuthRefusal('invalid_grant', 'redirect_uri does not match the authorization request');
    if (
      !isCodeVerifier(request.codeVerifier) ||
      !this.deps.secrets.same(this.deps.secrets.digest(request.codeVerifier), code.ask.codeChallenge)
    ) {
      throw new OAuthRefusal('invalid_grant', 'code_verifier does not match the code_challenge (PKCE)');
    }
    if (request.resource !== undefined && !namesTheDoor(request.resource, code.ask.resource))
      throw new OAuthRefusal('invalid_target', `resource must be ${code.ask.resource}`);

    const props = code.toPrimitives();
    const family = TokenFamily.start({
      id: this.deps.secrets.mint(),
      clientId: client.id,
      subject: code.subject,
      scope: code.ask.scope,
      resource: code.ask.resource,
      consentId: props.consentId,
      evidence: props.evidence,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.deps.settings.refreshTokenTtlSeconds * 1000).toISOString(),
    });
    if (!(await this.deps.codes.redeem(loaded, family.id))) throw new OAuthRefusal('invalid_grant', INVALID_CODE);
    await this.deps.families.save(family);
    await this.deps.audit.record({ subject: code.subject, action: 'door.tokens-issued', outcome: 'ok', details: { clientId: client.id } });
    return this.deps.mint.mint(family);
  }
}
