import { Container, ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';

/** How long an instance trusts an access token it already checked; revocations elsewhere arrive within it. */
const DEFAULT_TOKEN_CACHE_MS = 1_000;
import type { AuthorizationCodePrimitives } from '../../domain/door/authorization-code.js';
import type { PendingConsentPrimitives } from '../../domain/door/authorization-request.js';
import type { DoorClientPrimitives } from '../../domain/door/door-client.js';
import type { DoorConsentPrimitives } from '../../domain/door/door-consent.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorBearerVerifier } from '../../ports/door-bearer-verifier.js';
import type { DoorPrincipalLookup } from '../../ports/door-principals.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { Store } from '../../ports/store.js';
import type { DoorOAuthUseCases, DoorTransportUseCases } from '../../ports/use-cases/door.js';
import type { AuditTrail } from '../../application/audit/audit-trail.js';
import { AdmitCaller } from '../../application/door/admit-caller.js';
import { AnswerConsent } from '../../application/door/answer-consent.js';
import { BeginAuthorization } from '../../application/door/begin-authorization.js';
import { CallDoorTool } from '../../application/door/call-door-tool.js';
import { DoorClientBook } from '../../application/door/client-book.js';
import { AuthorizationCodeBook } from '../../application/door/code-book.js';
import { DoorConsentBook } from '../../application/door/consent-book.js';
import { DEFAULT_DOOR_SETTINGS, type DoorSettings } from '../../application/door/door-settings.js';
import { DoorSessions } from '../../application/door/door-sessions.js';
import { IssueTokens } from '../../application/door/issue-tokens.js';
import { ListDoorTools } from '../../application/door/list-door-tools.js';
import { LocalBearerVerifier } from '../../application/door/local-bearer-verifier.js';
import { PendingConsentBook } from '../../application/door/pending-consent-book.js';
import { RedeemCode } from '../../application/door/redeem-code.js';
import { RegisterClient } from '../../application/door/register-client.js';
import { RevokeToken } from '../../application/door/revoke-token.js';
import { RotateRefreshToken } from '../../application/door/rotate-refresh-token.js';
import { TokenFamilyBook } from '../../application/door/token-family-book.js';
import { TokenMint } from '../../application/door/token-mint.js';
import { JwksBearerVerifier } from '../../adapters/mcp/jwks-bearer-verifier.js';
import { NodeDoorSecrets } from '../../adapters/mcp/node-door-secrets.js';
import type { TransportSession } from '../../adapters/mcp/mcp-door-transport.js';

/** The door's books over the store. */
export interface DoorStores {
  readonly clients: DoorClientBook;
  readonly consents: DoorConsentBook;
  readonly pending: PendingConsentBook;
  readonly codes: AuthorizationCodeBook;
  readonly families: TokenFamilyBook;
}

/**
 * The door's own services. Everything shared (config, store, clock, ids, audit, the tool registry
 * and the guard) comes from the parent container; only the door's authorization server, bearer
 * verification and sessions live here.
 */
const doorServices = new ContainerModule(({ bind }) => {
  bind<DoorSettings>(TOKENS.DoorSettings)
    .toDynamicValue((ctx) => {
      const oauth = ctx.get<PorterConfig>(TOKENS.Config).oauth;
      return {
        ...DEFAULT_DOOR_SETTINGS,
        ...(oauth?.accessTokenTtlSeconds ? { accessTokenTtlSeconds: oauth.accessTokenTtlSeconds } : {}),
        ...(oauth?.refreshTokenTtlSeconds ? { refreshTokenTtlSeconds: oauth.refreshTokenTtlSeconds } : {}),
      };
    })
    .inSingletonScope();
  bind<DoorSecrets>(TOKENS.DoorSecrets).toConstantValue(new NodeDoorSecrets());
  bind<DoorStores>(TOKENS.DoorStores)
    .toDynamicValue((ctx) => {
      const store = ctx.get<Store>(TOKENS.Store);
      const secrets = ctx.get<DoorSecrets>(TOKENS.DoorSecrets);
      return {
        clients: new DoorClientBook(store.records<DoorClientPrimitives>('door-clients')),
        consents: new DoorConsentBook(store.records<DoorConsentPrimitives>('door-consents'), secrets),
        pending: new PendingConsentBook(store.records<PendingConsentPrimitives>('door-pending-consents')),
        codes: new AuthorizationCodeBook(store.records<AuthorizationCodePrimitives>('door-codes')),
        // A checked access token is trusted for a second on this instance unless told otherwise.
        families: new TokenFamilyBook(store, ctx.get<PorterConfig>(TOKENS.Config).oauth?.tokenCacheMs ?? DEFAULT_TOKEN_CACHE_MS),
      };
    })
    .inSingletonScope();
  bind<DoorSessions<TransportSession>>(TOKENS.DoorSessions)
    .toDynamicValue((ctx) => new DoorSessions<TransportSession>(ctx.get<DoorSettings>(TOKENS.DoorSettings), ctx.get<Clock>(TOKENS.Clock)))
    .inSingletonScope();
  bind<DoorPrincipalLookup>(TOKENS.DoorPrincipals).toDynamicValue((ctx) => {
    const config = ctx.get<PorterConfig>(TOKENS.Config);
    // The config schema makes `oauth` required whenever the door is open.
    const principal = config.oauth?.principal;
    if (!principal) throw new Error('the MCP door needs oauth.principal');
    return principal;
  });
  bind<DoorBearerVerifier>(TOKENS.DoorBearerVerifier)
    .toDynamicValue((ctx) => {
      const config = ctx.get<PorterConfig>(TOKENS.Config);
      if (config.remoteAs) return new JwksBearerVerifier(config.remoteAs, ctx.get(TOKENS.Logger));
      return new LocalBearerVerifier(ctx.get<DoorStores>(TOKENS.DoorStores).families, ctx.get(TOKENS.DoorSecrets), ctx.get(TOKENS.Clock));
    })
    .inSingletonScope();
  bind<DoorOAuthUseCases>(TOKENS.DoorOAuthUseCases)
    .toDynamicValue((ctx) => {
      const books = ctx.get<DoorStores>(TOKENS.DoorStores);
      const secrets = ctx.get<DoorSecrets>(TOKENS.DoorSecrets);
      const settings = ctx.get<DoorSettings>(TOKENS.DoorSettings);
      const clock = ctx.get<Clock>(TOKENS.Clock);
      const audit = ctx.get<AuditTrail>(TOKENS.AuditTrail);
      const mint = new TokenMint(books.families, secrets, settings, clock);
      return {
        registerClient: new RegisterClient(books.clients, secrets, ctx.get(TOKENS.Ids), clock, audit),
        beginAuthorization: new BeginAuthorization(books.clients, books.pending, ctx.get(TOKENS.ToolRegistry), secrets, settings, clock),
        answerConsent: new AnswerConsent(books.pending, books.consents, books.codes, secrets, settings, clock, audit),
        issueTokens: new IssueTokens(
          new RedeemCode(books.clients, books.codes, books.families, mint, secrets, settings, clock, audit),
          new RotateRefreshToken(books.clients, books.families, mint, secrets, clock, audit),
        ),
        revokeToken: new RevokeToken(books.clients, books.families, secrets, clock, audit),
      };
    })
    .inSingletonScope();
  bind<DoorTransportUseCases>(TOKENS.DoorTransportUseCases)
    .toDynamicValue((ctx) => ({
      admitCaller: new AdmitCaller(
        ctx.get(TOKENS.DoorBearerVerifier),
        ctx.get(TOKENS.DoorPrincipals),
        ctx.get(TOKENS.DoorSessions),
        ctx.get(TOKENS.AuditTrail),
      ),
      listTools: new ListDoorTools(ctx.get(TOKENS.ToolRegistry)),
      callTool: new CallDoorTool(ctx.get(TOKENS.ToolRegistry), ctx.get(TOKENS.GuardCall), ctx.get(TOKENS.Ids)),
    }))
    .inSingletonScope();
});

/** The door's container: a child of the composition root, holding the door's own services. */
export function doorContainer(parent: Container): Container {
  const door = new Container({ parent, defaultScope: 'Singleton' });
  door.loadSync(doorServices);
  return door;
}
