import { Container } from 'inversify';
import { get, getOptional, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { APP_TOKENS } from '../modules/apps-tokens.js';
import { DOOR_TOKENS } from '../modules/door-tokens.js';
import { GUARD_TOKENS } from '../modules/guard-tokens.js';
import { RUN_TOKENS } from '../modules/runs-tokens.js';
import type { AuthorizationCodePrimitives } from '../../domain/door/authorization-code.js';
import type { PendingConsentPrimitives } from '../../domain/door/authorization-request.js';
import type { DoorClientPrimitives } from '../../domain/door/door-client.js';
import type { DoorConsentPrimitives } from '../../domain/door/door-consent.js';
import { AdmitCaller } from '../../application/door/admit-caller.js';
import { AnswerConsent } from '../../application/door/answer-consent.js';
import { BeginAuthorization } from '../../application/door/begin-authorization.js';
import { CancelDoorTask, GetDoorTask } from '../../application/door/door-tasks.js';
import { CallDoorTool } from '../../application/door/call-door-tool.js';
import { DoorClientBook } from '../../application/door/client-book.js';
import { doorApps } from '../../application/door/door-apps.js';
import { DoorClients } from '../../application/door/door-clients.js';
import { AuthorizationCodeBook } from '../../application/door/code-book.js';
import { DoorConsentBook } from '../../application/door/consent-book.js';
import { DEFAULT_DOOR_SETTINGS } from '../../application/door/door-settings.js';
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
import { FetchedClientDocuments } from '../../adapters/mcp/fetched-client-documents.js';
import { GuardedEgress } from '../../adapters/shared/egress/guarded-egress.js';
import type { TransportSession } from '../../adapters/mcp/mcp-door-transport.js';
import { HostPrincipals, hostPrincipalLookup } from '../../adapters/http/floor/host-principal.js';
import type { DoorSessionPrimitives } from '../../ports/door-sessions.js';
import { defined } from '../../domain/defined.js';

/** How long an instance trusts an access token it already checked; revocations elsewhere arrive within it. */
const DEFAULT_TOKEN_CACHE_MS = 1_000;
const DEFAULT_SESSION_CACHE_MS = 1_000;

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
const doorServices = porterModule((bind) => {
  bind.singleton(DOOR_TOKENS.DoorSettings, (ctx) => {
    const oauth = get(ctx, TOKENS.Config).oauth;
    return {
      ...DEFAULT_DOOR_SETTINGS,
      ...defined({
        accessTokenTtlSeconds: oauth?.accessTokenTtlSeconds || undefined,
        refreshTokenTtlSeconds: oauth?.refreshTokenTtlSeconds || undefined,
        refreshGraceSeconds: oauth?.refreshGraceSeconds,
      }),
    };
  });
  bind(DOOR_TOKENS.DoorSecrets).toConstantValue(new NodeDoorSecrets());
  bind.singleton(DOOR_TOKENS.DoorStores, (ctx) => {
    const store = get(ctx, TOKENS.Store);
    const secrets = get(ctx, DOOR_TOKENS.DoorSecrets);
    return {
      clients: new DoorClientBook(store.records<DoorClientPrimitives>('door-clients')),
      consents: new DoorConsentBook(store.records<DoorConsentPrimitives>('door-consents'), secrets),
      pending: new PendingConsentBook(store.records<PendingConsentPrimitives>('door-pending-consents')),
      codes: new AuthorizationCodeBook(store.records<AuthorizationCodePrimitives>('door-codes')),
      // A checked access token is trusted for a second on this instance unless told otherwise.
      families: new TokenFamilyBook(store, get(ctx, TOKENS.Config).oauth?.tokenCacheMs ?? DEFAULT_TOKEN_CACHE_MS),
    };
  });
  bind.singleton(
    DOOR_TOKENS.DoorSessions,
    (ctx) =>
      new DoorSessions<TransportSession>({
        records: recordsOf<DoorSessionPrimitives>(ctx, 'door-sessions'),
        settings: get(ctx, DOOR_TOKENS.DoorSettings),
        clock: get(ctx, TOKENS.Clock),
        // A session ended elsewhere is refused here within this; its owner never changes, so the
        // bearer (checked on its own terms, `oauth.tokenCacheMs`) is what keeps a revoked person out.
        cacheMs: get(ctx, TOKENS.Config).door?.sessionCacheMs ?? DEFAULT_SESSION_CACHE_MS,
      }),
  );
  bind(DOOR_TOKENS.DoorPrincipals).toDynamicValue((ctx) => {
    const config = get(ctx, TOKENS.Config);
    // The config schema makes `oauth` required whenever the door is open.
    const principal = config.oauth?.principal;
    if (!principal) throw new Error('the MCP door needs oauth.principal');
    return hostPrincipalLookup(principal, new HostPrincipals(get(ctx, TOKENS.Logger)));
  });
  bind.singleton(DOOR_TOKENS.DoorBearerVerifier, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    if (config.remoteAs) return new JwksBearerVerifier(config.remoteAs, get(ctx, TOKENS.Logger));
    return new LocalBearerVerifier(get(ctx, DOOR_TOKENS.DoorStores).families, get(ctx, DOOR_TOKENS.DoorSecrets), get(ctx, TOKENS.Clock));
  });
  bind.singleton(DOOR_TOKENS.DoorOAuthUseCases, (ctx) => {
    const books = get(ctx, DOOR_TOKENS.DoorStores);
    const secrets = get(ctx, DOOR_TOKENS.DoorSecrets);
    const settings = get(ctx, DOOR_TOKENS.DoorSettings);
    const clock = get(ctx, TOKENS.Clock);
    const audit = get(ctx, TOKENS.AuditTrail);
    const mint = new TokenMint(books.families, secrets, settings, clock);
    // Client ID Metadata Documents are fetched through the egress guard; development also lets it
    // reach this machine (as completion webhooks), so a client's document served locally works.
    const config = get(ctx, TOKENS.Config);
    const egress = config.development ? new GuardedEgress({ allow: ['loopback'] }) : get(ctx, GUARD_TOKENS.Egress);
    const clients = new DoorClients(books.clients, new FetchedClientDocuments({ egress }), clock);
    return {
      registerClient: new RegisterClient({ clients: books.clients, secrets, ids: get(ctx, TOKENS.Ids), clock, audit }),
      beginAuthorization: new BeginAuthorization({
        clients,
        pending: books.pending,
        tools: get(ctx, GUARD_TOKENS.ToolRegistry),
        secrets,
        settings,
        clock,
      }),
      answerConsent: new AnswerConsent({
        pending: books.pending,
        consents: books.consents,
        codes: books.codes,
        secrets,
        settings,
        clock,
        audit,
      }),
      issueTokens: new IssueTokens(
        new RedeemCode({ clients, codes: books.codes, families: books.families, mint, secrets, settings, clock, audit }),
        new RotateRefreshToken({ clients, families: books.families, mint, secrets, settings, clock, audit }),
      ),
      revokeToken: new RevokeToken({ clients, families: books.families, secrets, clock, audit }),
    };
  });
  bind.singleton(DOOR_TOKENS.DoorTransportUseCases, (ctx) => {
    // Without automations there is no run to follow: every task id is unknown.
    const runs = getOptional(ctx, RUN_TOKENS.RunUseCases) ?? null;
    const getTask = new GetDoorTask(runs);
    const apps = getOptional(ctx, APP_TOKENS.AppsUseCases);
    return {
      admitCaller: new AdmitCaller(
        get(ctx, DOOR_TOKENS.DoorBearerVerifier),
        get(ctx, DOOR_TOKENS.DoorPrincipals),
        get(ctx, DOOR_TOKENS.DoorSessions),
        get(ctx, TOKENS.AuditTrail),
      ),
      listTools: new ListDoorTools(get(ctx, GUARD_TOKENS.ToolRegistry)),
      callTool: new CallDoorTool(get(ctx, GUARD_TOKENS.ToolRegistry), get(ctx, GUARD_TOKENS.GuardCall), get(ctx, TOKENS.Ids), getTask),
      getTask,
      cancelTask: new CancelDoorTask(getTask, runs),
      // Generated apps as MCP Apps, when apps are on.
      ...defined({ apps: apps ? doorApps(apps) : undefined }),
    };
  });
});

/** The door's container: a child of the composition root, holding the door's own services. */
export function doorContainer(parent: Container): Container {
  const door = new Container({ parent, defaultScope: 'Singleton' });
  door.load(doorServices);
  return door;
}
