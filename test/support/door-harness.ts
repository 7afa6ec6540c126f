import { DoorClients } from '../../application/door/door-clients.js';
import { FetchedClientDocuments } from '../../adapters/mcp/fetched-client-documents.js';
import { GuardedEgress } from '../../adapters/shared/egress/guarded-egress.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../../domain/principal.js';
import type { AuthorizationCodePrimitives } from '../../domain/door/authorization-code.js';
import type { PendingConsentPrimitives } from '../../domain/door/authorization-request.js';
import type { DoorClientPrimitives } from '../../domain/door/door-client.js';
import type { DoorConsentPrimitives } from '../../domain/door/door-consent.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { Store } from '../../ports/store.js';
import type { DoorPrincipalLookup } from '../../ports/door-principals.js';
import type { DoorBearerVerifier } from '../../ports/door-bearer-verifier.js';
import type { ClientRegistration, DoorSite, TokenGrant } from '../../ports/use-cases/door.js';
import type { ActAsPreset } from '../../ports/act-as.js';
import type { HostApi } from '../../ports/host-api.js';
import { AuditTrail } from '../../application/audit/audit-trail.js';
import { AdmitCaller } from '../../application/door/admit-caller.js';
import { HostPrincipals, hostPrincipalLookup } from '../../adapters/http/floor/host-principal.js';
import { AnswerConsent } from '../../application/door/answer-consent.js';
import { BeginAuthorization } from '../../application/door/begin-authorization.js';
import { CallDoorTool } from '../../application/door/call-door-tool.js';
import { DoorClientBook } from '../../application/door/client-book.js';
import { AuthorizationCodeBook } from '../../application/door/code-book.js';
import { DoorConsentBook } from '../../application/door/consent-book.js';
import { DEFAULT_DOOR_SETTINGS, type DoorSettings } from '../../application/door/door-settings.js';
import { DoorSessions } from '../../application/door/door-sessions.js';
import type { DoorSessionPrimitives } from '../../ports/door-sessions.js';
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
import { NodeDoorSecrets } from '../../adapters/mcp/node-door-secrets.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import { guardHarness } from './guard-harness.js';
import { SequentialIds } from './fakes.js';
import type { ManualClock } from './manual-clock.js';

export const SITE: DoorSite = { issuer: 'https://app.example', resource: 'https://app.example/api/porter/mcp' };
export const REDIRECT = 'https://client.example/callback';

/** A PKCE pair as a client makes one (RFC 7636): a random verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface DoorHarnessOptions {
  tools?: ToolDefinition[];
  store?: Store;
  /** Shared by harnesses standing for two instances, so they agree on the time. */
  clock?: ManualClock;
  principal?: DoorPrincipalLookup;
  settings?: Partial<DoorSettings>;
  verifier?: DoorBearerVerifier;
  actAs?: ActAsPreset | null;
  host?: HostApi | null;
}

/** The door's application layer over the guard harness, wired as composition/containers/door.ts wires it. */
export function doorHarness(options: DoorHarnessOptions = {}) {
  const tools = options.tools ?? [];
  const guard = guardHarness({
    tools,
    ...(options.store ? { store: options.store } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    actAs: options.actAs ?? null,
    host: options.host ?? null,
  });
  const { clock, store } = guard;
  const ids = new SequentialIds();
  const audit = new AuditTrail({ sink: guard.auditLog, ids, clock, logger: guard.logger });
  const secrets = new NodeDoorSecrets();
  const settings: DoorSettings = { ...DEFAULT_DOOR_SETTINGS, ...options.settings };
  const registered = new DoorClientBook(store.records<DoorClientPrimitives>('door-clients'));
  // Metadata-document clients as production reads them: through the egress guard, public addresses only.
  const clients = new DoorClients(registered, new FetchedClientDocuments({ egress: new GuardedEgress() }), clock);
  const consents = new DoorConsentBook(store.records<DoorConsentPrimitives>('door-consents'), secrets);
  const pending = new PendingConsentBook(store.records<PendingConsentPrimitives>('door-pending-consents'));
  const codes = new AuthorizationCodeBook(store.records<AuthorizationCodePrimitives>('door-codes'));
  const families = new TokenFamilyBook(store);
  const mint = new TokenMint(families, secrets, settings, clock);
  const registry = new StaticToolRegistry(tools);
  const sessions = new DoorSessions({ records: store.records<DoorSessionPrimitives>('door-sessions'), settings, clock });
  const people = new Map<string, Principal | null>();
  // Read as production reads the host's answer (composition/containers/door.ts).
  const principalOf: DoorPrincipalLookup = hostPrincipalLookup(
    options.principal ?? ((subject) => (people.has(subject) ? people.get(subject)! : { subject, kind: 'user' })),
    new HostPrincipals(guard.logger),
  );

  const oauth = {
    registerClient: new RegisterClient({ clients: registered, secrets, ids, clock, audit }),
    beginAuthorization: new BeginAuthorization({ clients, pending, tools: registry, secrets, settings, clock }),
    answerConsent: new AnswerConsent({ pending, consents, codes, secrets, settings, clock, audit }),
    issueTokens: new IssueTokens(
      new RedeemCode({ clients, codes, families, mint, secrets, settings, clock, audit }),
      new RotateRefreshToken({ clients, families, mint, secrets, settings, clock, audit }),
    ),
    revokeToken: new RevokeToken({ clients, families, secrets, clock, audit }),
  };
  const verifier = options.verifier ?? new LocalBearerVerifier(families, secrets, clock);
  const transport = {
    admitCaller: new AdmitCaller(verifier, principalOf, sessions, audit),
    listTools: new ListDoorTools(registry),
    callTool: new CallDoorTool(registry, guard.guard, ids),
  };

  const harness = {
    guard,
    clock,
    store,
    secrets,
    sessions,
    families,
    oauth,
    transport,
    /** Makes `oauth.principal(subject)` answer null (the host deleted them) or a principal. */
    setPerson(subject: string, principal: Principal | null) {
      people.set(subject, principal);
    },
    async register(registration: Partial<ClientRegistration> = {}) {
      return oauth.registerClient.execute({ redirectUris: [REDIRECT], clientName: 'Test client', ...registration });
    },
    /** The browser leg: /authorize, the consent page, the person's yes; returns the code from the redirect. */
    async authorize(
      clientId: string,
      person: Principal,
      pkce = pkcePair(),
      extra: { state?: string } = {},
    ): Promise<{ code: string; verifier: string }> {
      const step = await oauth.beginAuthorization.execute({
        query: {
          responseType: 'code',
          clientId,
          redirectUri: REDIRECT,
          codeChallenge: pkce.challenge,
          codeChallengeMethod: 'S256',
          ...extra,
        },
        site: SITE,
        signedIn: person,
      });
      if (step.kind !== 'consent') throw new Error(`expected the consent page, got ${JSON.stringify(step)}`);
      const answer = await oauth.answerConsent.execute({ handle: step.view.handle, approve: true, site: SITE, signedIn: person });
      if (answer.kind !== 'redirect') throw new Error(`expected a redirect, got ${JSON.stringify(answer)}`);
      const code = new URL(answer.location).searchParams.get('code');
      if (!code) throw new Error(`no code in ${answer.location}`);
      return { code, verifier: pkce.verifier };
    },
    async exchange(clientId: string, code: string, verifier: string, client: { clientSecret?: string } = {}): Promise<TokenGrant> {
      return oauth.issueTokens.execute({
        grantType: 'authorization_code',
        code,
        codeVerifier: verifier,
        redirectUri: REDIRECT,
        client: {
          clientId,
          ...(client.clientSecret ? { clientSecret: client.clientSecret, via: 'client_secret_post' as const } : { via: 'none' as const }),
        },
        site: SITE,
      });
    },
    /** `requestedAt`: when the request reached the door, as the HTTP adapter passes it (the clock's now otherwise). */
    refresh(clientId: string, refreshToken: string, requestedAt?: string): Promise<TokenGrant> {
      return oauth.issueTokens.execute({
        grantType: 'refresh_token',
        refreshToken,
        client: { clientId, via: 'none' },
        site: SITE,
        ...(requestedAt ? { requestedAt } : {}),
      });
    },
    /** Registration, consent and code exchange for one person: their first token grant. */
    async connect(person: Principal, registration: Partial<ClientRegistration> = {}) {
      const client = await harness.register(registration);
      const { code, verifier } = await harness.authorize(client.clientId, person);
      const tokens = await harness.exchange(
        client.clientId,
        code,
        verifier,
        client.clientSecret ? { clientSecret: client.clientSecret } : {},
      );
      return { client, tokens };
    },
    /** Admits a bearer as the transport does on each request. */
    admit(token: string | null) {
      return transport.admitCaller.execute({ token, site: SITE });
    },
  };
  return harness;
}

/** The door's application layer as doorHarness wires it. */
export type DoorHarness = ReturnType<typeof doorHarness>;

/** The OAuth error a promise was refused with, or 'resolved'. */
export async function oauthErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { oauthError?: string }).oauthError ?? `not-oauth: ${(error as Error).message}`;
  }
  return 'resolved';
}
