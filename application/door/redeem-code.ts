import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import { isCodeVerifier } from '../../domain/door/pkce.js';
import { TokenFamily } from '../../domain/door/token-family.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TokenGrant, TokenRequest } from '../../ports/use-cases/door.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { authenticateClient } from './client-authentication.js';
import type { DoorClientBook } from './client-book.js';
import type { AuthorizationCodeBook } from './code-book.js';
import type { DoorSettings } from './door-settings.js';
import type { TokenFamilyBook } from './token-family-book.js';
import type { TokenMint } from './token-mint.js';

type CodeRequest = Extract<TokenRequest, { grantType: 'authorization_code' }>;

const INVALID_CODE = 'The authorization code is not valid';

/** What RedeemCode is built from. */
export interface RedeemCodeDeps {
  readonly clients: DoorClientBook;
  readonly codes: AuthorizationCodeBook;
  readonly families: TokenFamilyBook;
  readonly mint: TokenMint;
  readonly secrets: DoorSecrets;
  readonly settings: DoorSettings;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

/**
 * `grant_type=authorization_code`: the code, its client, its redirect URI and the PKCE verifier must
 * all match. Redemption is a claim, so of two racing redeemers one gets tokens; a code presented
 * after it was redeemed revokes the tokens it gave (RFC 6749 §4.1.2).
 */
export class RedeemCode implements UseCase<CodeRequest, TokenGrant> {
  private readonly clients: DoorClientBook;
  private readonly codes: AuthorizationCodeBook;
  private readonly families: TokenFamilyBook;
  private readonly mint: TokenMint;
  private readonly secrets: DoorSecrets;
  private readonly settings: DoorSettings;
  private readonly clock: Clock;
  private readonly audit: AuditTrail;

  constructor(deps: RedeemCodeDeps) {
    this.clients = deps.clients;
    this.codes = deps.codes;
    this.families = deps.families;
    this.mint = deps.mint;
    this.secrets = deps.secrets;
    this.settings = deps.settings;
    this.clock = deps.clock;
    this.audit = deps.audit;
  }

  async execute(request: CodeRequest): Promise<TokenGrant> {
    const client = await authenticateClient(this.clients, this.secrets, request.client, 401);
    if (!request.code) throw new OAuthRefusal('invalid_request', 'code is required');
    if (!request.redirectUri) throw new OAuthRefusal('invalid_request', 'redirect_uri is required');
    if (!request.codeVerifier) throw new OAuthRefusal('invalid_request', 'code_verifier is required (PKCE)');

    const loaded = await this.codes.find(this.secrets.digest(request.code));
    if (!loaded || loaded.code.ask.clientId !== client.id) throw new OAuthRefusal('invalid_grant', INVALID_CODE);
    const { code } = loaded;
    const now = this.clock.now();
    if (code.redeemedFor) {
      await this.families.revoke(code.redeemedFor, now.toISOString(), 'code-reused');
      await this.audit.record({
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
    if (!isCodeVerifier(request.codeVerifier) || !this.secrets.same(this.secrets.digest(request.codeVerifier), code.ask.codeChallenge)) {
      throw new OAuthRefusal('invalid_grant', 'code_verifier does not match the code_challenge (PKCE)');
    }
    if (request.resource !== undefined && request.resource !== code.ask.resource)
      throw new OAuthRefusal('invalid_target', `resource must be ${code.ask.resource}`);

    const props = code.toPrimitives();
    const family = TokenFamily.start({
      id: this.secrets.mint(),
      clientId: client.id,
      subject: code.subject,
      scope: code.ask.scope,
      resource: code.ask.resource,
      consentId: props.consentId,
      evidence: props.evidence,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.settings.refreshTokenTtlSeconds * 1000).toISOString(),
    });
    if (!(await this.codes.redeem(loaded, family.id))) throw new OAuthRefusal('invalid_grant', INVALID_CODE);
    await this.families.save(family);
    await this.audit.record({ subject: code.subject, action: 'door.tokens-issued', outcome: 'ok', details: { clientId: client.id } });
    return this.mint.mint(family);
  }
}
