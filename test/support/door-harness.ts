import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../../domain/principal.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { Store } from '../../ports/store.js';
import type { DoorPrincipalLookup } from '../../ports/door-principals.js';
import type { DoorBearerVerifier } from '../../ports/door-bearer-verifier.js';
import type { ClientRegistration, DoorSite, TokenGrant } from '../../ports/use-cases/door.js';
import type { ActAsPreset } from '../../ports/act-as.js';
import { DEFAULT_DOOR_SETTINGS, type DoorSettings } from '../../application/door/door-settings.js';
import type { DoorSessions } from '../../application/door/door-sessions.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import type { PorterOptions } from '../../composition/config/porter-options.js';
import { testContainer } from '../../composition/containers/test-container.js';
import { get, TOKENS } from '../../composition/tokens.js';
import { DOOR_TOKENS } from '../../composition/modules/door-tokens.js';
import { GUARD_TOKENS } from '../../composition/modules/guard-tokens.js';
import { guardOf } from './guard-harness.js';
import { RecordingLogger, SequentialIds } from './fakes.js';
import { ManualClock } from './manual-clock.js';

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
  /** The host's API (`baseUrl`) that tools reach with the person's credentials; absent, none. */
  baseUrl?: string;
}

/**
 * The door's application layer over the guard: the production modules (testContainer, `mcp: true`),
 * with the test's clock, ids, tools and door settings in place of theirs, and no cache in front of
 * the store (two harnesses on one store play two instances that see each other's writes at once).
 */
export function doorHarness(options: DoorHarnessOptions = {}) {
  const clock = options.clock ?? new ManualClock('2026-06-01T12:00:00.000Z');
  const store = options.store ?? new MemoryStore({ clock });
  const logger = new RecordingLogger();
  const people = new Map<string, Principal | null>();
  const principal: DoorPrincipalLookup =
    options.principal ?? ((subject) => (people.has(subject) ? people.get(subject)! : { subject, kind: 'user' }));
  const config: PorterOptions = {
    apps: false,
    automations: false,
    mcp: true,
    oauth: { principal, tokenCacheMs: 0 },
    door: { sessionCacheMs: 0 },
    ...(options.actAs ? { actAs: options.actAs } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  };
  const container = testContainer(
    { options: config, store, clock, logger },
    ({ replace }) => {
      replace(TOKENS.Ids, new SequentialIds());
      replace(GUARD_TOKENS.ToolRegistry, new StaticToolRegistry(options.tools ?? []));
    },
    ({ replace }) => {
      replace(DOOR_TOKENS.DoorSettings, { ...DEFAULT_DOOR_SETTINGS, ...options.settings });
      if (options.verifier) replace(DOOR_TOKENS.DoorBearerVerifier, options.verifier);
    },
  );
  const door = get(container, DOOR_TOKENS.DoorContainer);
  const oauth = get(door, DOOR_TOKENS.DoorOAuthUseCases);
  const transport = get(door, DOOR_TOKENS.DoorTransportUseCases);
  // Tests open sessions of their own, without the SDK's transport and server a live one carries.
  const sessions: DoorSessions = get(door, DOOR_TOKENS.DoorSessions);
  const harness = {
    guard: guardOf(container, { clock, store, logger }),
    clock,
    store,
    secrets: get(door, DOOR_TOKENS.DoorSecrets),
    sessions,
    families: get(door, DOOR_TOKENS.DoorStores).families,
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
