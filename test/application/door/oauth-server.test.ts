import { expect } from 'chai';
import { PKCE_REQUIRED } from '../../../domain/door/pkce.js';
import { FORGIVEN_REPLAYS } from '../../../domain/door/token-family.js';
import type { Principal } from '../../../domain/principal.js';
import type { Store } from '../../../ports/store.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { pairedStoreKinds, pairedStoresPerSuite } from '../../support/paired-stores.js';
import { doorHarness, type DoorHarness, oauthErrorOf, pkcePair, REDIRECT, SITE } from '../../support/door-harness.js';
import { CLIENT_SHAPES, registrationOf } from '../../support/mcp-client-shapes.js';

const ada: Principal = { subject: 'ada', kind: 'user', name: 'Ada' };
const bob: Principal = { subject: 'bob', kind: 'user' };

/** Every record the door keeps, as text: to look for secrets that must never be stored. */
async function everythingStored(store: Store): Promise<string> {
  const names = [
    'door-clients',
    'door-consents',
    'door-pending-consents',
    'door-codes',
    'door-token-families',
    'door-refresh-tokens',
    'door-access-tokens',
    'audit',
  ];
  const parts: string[] = [];
  for (const name of names) {
    const page = await store.records(name).list({ limit: 500 });
    for (const record of page.items) parts.push(record.id, JSON.stringify(record.data), JSON.stringify(record.refs));
  }
  return parts.join('\n');
}

describe("The door's authorization server (use cases)", () => {
  describe('registration (RFC 7591)', () => {
    it('registers a public client with an mcpc_ id and no secret', async () => {
      const h = doorHarness();
      const client = await h.register({ clientName: 'Claude' });
      expect(client.clientId).to.match(/^mcpc_/);
      expect(client).to.include({ clientName: 'Claude', tokenEndpointAuthMethod: 'none', scope: 'mcp' });
      expect(client).to.not.have.property('clientSecret');
      expect(client.grantTypes).to.deep.equal(['authorization_code', 'refresh_token']);
    });

    it('gives a confidential client its secret once and keeps only its digest', async () => {
      const h = doorHarness();
      const client = await h.register({ tokenEndpointAuthMethod: 'client_secret_post' });
      expect(client.clientSecret).to.be.a('string').with.length.greaterThan(40);
      expect(await everythingStored(h.store)).to.not.contain(client.clientSecret!);
    });

    it('refuses redirect URIs that could leak a code', async () => {
      const h = doorHarness();
      expect(await oauthErrorOf(h.register({ redirectUris: ['http://evil.example/cb'] }))).to.equal('invalid_redirect_uri');
      expect(await oauthErrorOf(h.register({ redirectUris: ['javascript:alert(1)'] }))).to.equal('invalid_redirect_uri');
      expect(await oauthErrorOf(h.register({ redirectUris: ['https://ok.example/cb', 'https://ok.example/cb#frag'] }))).to.equal(
        'invalid_redirect_uri',
      );
      expect((await h.store.records('door-clients').list()).items).to.have.length(0);
    });

    it('narrows grants, response types, scopes and authentication methods it does not do, instead of refusing them', async () => {
      const h = doorHarness();
      const client = await h.register({
        grantTypes: [
          'authorization_code',
          'urn:ietf:params:oauth:grant-type:device_code',
          'client_credentials',
          'implicit',
          'refresh_token',
        ],
        responseTypes: ['code', 'token'],
        scope: 'admin offline_access',
        tokenEndpointAuthMethod: 'private_key_jwt',
      });
      expect(client).to.deep.include({
        grantTypes: ['authorization_code', 'refresh_token'],
        responseTypes: ['code'],
        scope: 'mcp',
        tokenEndpointAuthMethod: 'none',
      });
      expect((await h.register({ grantTypes: ['client_credentials'] })).grantTypes).to.deep.equal(['authorization_code', 'refresh_token']);
      expect((await h.register({ grantTypes: ['authorization_code'] })).grantTypes).to.deep.equal(['authorization_code']);
    });

    for (const shape of CLIENT_SHAPES) {
      it(`registers ${shape.name} as it registers itself, showing what was kept`, async () => {
        const h = doorHarness();
        const registration = registrationOf(shape.registration);
        const client = await h.register(registration);
        expect(client.redirectUris).to.deep.equal(shape.registration.redirect_uris);
        expect(client.scope).to.equal('mcp');
        expect(client.grantTypes).to.include('authorization_code');
        for (const grant of client.grantTypes) expect(['authorization_code', 'refresh_token']).to.include(grant);
        expect(client.responseTypes).to.deep.equal(['code']);
        // It then asks for consent with its own scope, and gets tokens for mcp.
        const pkce = pkcePair();
        const step = await h.oauth.beginAuthorization.execute({
          query: {
            responseType: 'code',
            clientId: client.clientId,
            redirectUri: shape.redirectUri,
            codeChallenge: pkce.challenge,
            codeChallengeMethod: 'S256',
            ...(shape.authorizeScope ? { scope: shape.authorizeScope } : {}),
          },
          site: SITE,
          signedIn: ada,
        });
        if (step.kind !== 'consent') throw new Error(JSON.stringify(step));
        expect(step.view.scope).to.equal('mcp');
        const answer = await h.oauth.answerConsent.execute({ handle: step.view.handle, approve: true, site: SITE, signedIn: ada });
        const code = new URL(answer.kind === 'redirect' ? answer.location : 'x:/').searchParams.get('code')!;
        const tokens = await h.oauth.issueTokens.execute({
          grantType: 'authorization_code',
          code,
          codeVerifier: pkce.verifier,
          redirectUri: shape.redirectUri,
          client: {
            clientId: client.clientId,
            ...(client.clientSecret ? { clientSecret: client.clientSecret, via: 'client_secret_post' as const } : { via: 'none' as const }),
          },
          site: SITE,
        });
        expect(tokens.scope).to.equal('mcp');
      });
    }
  });

  describe('/authorize', () => {
    it('refuses on the spot, never redirecting, for an unknown client or an unregistered redirect URI', async () => {
      const h = doorHarness();
      const client = await h.register();
      const { challenge } = pkcePair();
      const base = { responseType: 'code', codeChallenge: challenge, codeChallengeMethod: 'S256' };
      const unknown = await h.oauth.beginAuthorization.execute({
        query: { ...base, clientId: 'mcpc_nope000000', redirectUri: REDIRECT },
        site: SITE,
        signedIn: ada,
      });
      expect(unknown.kind).to.equal('refuse');
      const elsewhere = await h.oauth.beginAuthorization.execute({
        query: { ...base, clientId: client.clientId, redirectUri: 'https://attacker.example/cb' },
        site: SITE,
        signedIn: ada,
      });
      expect(elsewhere).to.deep.include({ kind: 'refuse' });
    });

    const pkceCases: Array<[string, { codeChallenge?: string; codeChallengeMethod?: string }]> = [
      ['a missing code_challenge', { codeChallengeMethod: 'S256' }],
      ['a 42-character code_challenge', { codeChallenge: 'a'.repeat(42), codeChallengeMethod: 'S256' }],
      ['a code_challenge with non-base64url characters', { codeChallenge: `${'a'.repeat(42)}+`, codeChallengeMethod: 'S256' }],
      ['code_challenge_method=plain', { codeChallenge: 'a'.repeat(43), codeChallengeMethod: 'plain' }],
      ['an omitted code_challenge_method', { codeChallenge: 'a'.repeat(43) }],
      ['a lower-case s256', { codeChallenge: 'a'.repeat(43), codeChallengeMethod: 's256' }],
    ];
    for (const [what, pkce] of pkceCases) {
      it(`redirects back with invalid_request and the PKCE description for ${what}, whatever else is wrong`, async () => {
        const h = doorHarness();
        const client = await h.register();
        // The PKCE rule answers first: other faults (here a missing response_type, an unknown scope) do not hide it.
        for (const extra of [{ responseType: 'code' }, {}, { responseType: 'token', scope: 'admin' }]) {
          const step = await h.oauth.beginAuthorization.execute({
            query: { clientId: client.clientId, redirectUri: REDIRECT, state: 'xyz', ...extra, ...pkce },
            site: SITE,
            signedIn: ada,
          });
          expect(step.kind).to.equal('redirect');
          const location = new URL(step.kind === 'redirect' ? step.location : '');
          expect(`${location.origin}${location.pathname}`).to.equal(REDIRECT);
          expect(Object.fromEntries(location.searchParams), JSON.stringify(extra)).to.deep.equal({
            error: 'invalid_request',
            error_description: PKCE_REQUIRED,
            state: 'xyz',
            iss: SITE.issuer,
          });
        }
      });
    }

    it('sends a person who is not signed in (or only anonymous) to sign in, keeping nothing', async () => {
      const h = doorHarness();
      const client = await h.register();
      const query = {
        responseType: 'code',
        clientId: client.clientId,
        redirectUri: REDIRECT,
        codeChallenge: pkcePair().challenge,
        codeChallengeMethod: 'S256',
      };
      expect(await h.oauth.beginAuthorization.execute({ query, site: SITE, signedIn: null })).to.deep.equal({ kind: 'sign-in' });
      expect(
        await h.oauth.beginAuthorization.execute({
          query,
          site: SITE,
          signedIn: { subject: 'porter:anon:x', kind: 'anonymous', anonymous: true },
        }),
      ).to.deep.equal({ kind: 'sign-in' });
      expect((await h.store.records('door-pending-consents').list()).items).to.have.length(0);
    });

    it('shows the signed-in person the consent page naming the client and every tool with its risk', async () => {
      const h = doorHarness({
        tools: [
          { name: 'notes_list', description: 'List notes', inputSchema: { type: 'object' }, risk: 'read', execute: async () => [] },
          { name: 'web_fetch', description: 'Fetch', inputSchema: { type: 'object' }, risk: 'read', egress: true, execute: async () => '' },
        ],
      });
      const client = await h.register({ clientName: 'Cursor' });
      const step = await h.oauth.beginAuthorization.execute({
        query: {
          responseType: 'code',
          clientId: client.clientId,
          redirectUri: REDIRECT,
          codeChallenge: pkcePair().challenge,
          codeChallengeMethod: 'S256',
        },
        site: SITE,
        signedIn: ada,
      });
      if (step.kind !== 'consent') throw new Error(step.kind);
      expect(step.view.client).to.deep.include({ name: 'Cursor', redirectOrigin: 'https://client.example' });
      expect(step.view.person).to.deep.equal({ subject: 'ada', name: 'Ada' });
      expect(step.view.tools).to.deep.equal([
        { name: 'notes_list', description: 'List notes', risk: 'read', egress: false },
        { name: 'web_fetch', description: 'Fetch', risk: 'read', egress: true },
      ]);
    });
  });

  describe('the consent answer', () => {
    /** Ada's answer to a fresh client's consent page; `location` is where it redirects (no parameters if it does not). */
    async function answered(approve: boolean) {
      const h = doorHarness();
      const client = await h.register();
      const step = await h.oauth.answerConsent.execute({
        handle: await consentPage(h, client.clientId),
        approve,
        site: SITE,
        signedIn: ada,
      });
      return { h, location: new URL(step.kind === 'redirect' ? step.location : 'x:/') };
    }

    async function consentPage(h: ReturnType<typeof doorHarness>, clientId: string) {
      const step = await h.oauth.beginAuthorization.execute({
        query: {
          responseType: 'code',
          clientId,
          redirectUri: REDIRECT,
          codeChallenge: pkcePair().challenge,
          codeChallengeMethod: 'S256',
          state: 's1',
        },
        site: SITE,
        signedIn: ada,
      });
      if (step.kind !== 'consent') throw new Error(step.kind);
      return step.view.handle;
    }

    it('answers only for the person it was shown to, and only once', async () => {
      const h = doorHarness();
      const client = await h.register();
      const handle = await consentPage(h, client.clientId);
      expect((await h.oauth.answerConsent.execute({ handle, approve: true, site: SITE, signedIn: bob })).kind).to.equal('refuse');
      expect((await h.oauth.answerConsent.execute({ handle, approve: true, site: SITE, signedIn: ada })).kind).to.equal('redirect');
      expect((await h.oauth.answerConsent.execute({ handle, approve: true, site: SITE, signedIn: ada })).kind).to.equal('refuse');
    });

    it('expires with its time-to-live', async () => {
      const h = doorHarness();
      const client = await h.register();
      const handle = await consentPage(h, client.clientId);
      h.clock.advance(11 * 60 * 1000);
      expect((await h.oauth.answerConsent.execute({ handle, approve: true, site: SITE, signedIn: ada })).kind).to.equal('refuse');
    });

    it('sends access_denied back with the state when the person declines', async () => {
      const { location } = await answered(false);
      expect(location.searchParams.get('error')).to.equal('access_denied');
      expect(location.searchParams.get('state')).to.equal('s1');
    });

    it('sends a one-time code with state and iss on a yes, and keeps only its digest', async () => {
      const { h, location } = await answered(true);
      const code = location.searchParams.get('code')!;
      expect(code).to.have.length.greaterThan(40);
      expect(location.searchParams.get('state')).to.equal('s1');
      expect(location.searchParams.get('iss')).to.equal(SITE.issuer);
      expect(await everythingStored(h.store)).to.not.contain(code);
    });
  });

  describe('/token: the authorization code', () => {
    it('exchanges code + PKCE verifier for tokens that admit the person; only digests are stored', async () => {
      const h = doorHarness();
      const { tokens } = await h.connect(ada);
      expect(tokens).to.include({ tokenType: 'Bearer', scope: 'mcp', expiresIn: 3600 });
      const admission = await h.admit(tokens.accessToken);
      expect(admission.ok && admission.caller).to.deep.include({ subject: 'ada', scope: 'mcp' });
      expect(admission.ok && admission.caller.evidence).to.match(/^consent:/);
      const stored = await everythingStored(h.store);
      expect(stored).to.not.contain(tokens.accessToken);
      expect(stored).to.not.contain(tokens.refreshToken);
    });

    it('refuses a wrong verifier, a wrong redirect URI, another client and an expired code', async () => {
      const h = doorHarness();
      const client = await h.register();
      const other = await h.register();
      const first = await h.authorize(client.clientId, ada);
      expect(await oauthErrorOf(h.exchange(client.clientId, first.code, pkcePair().verifier))).to.equal('invalid_grant');
      expect(await oauthErrorOf(h.exchange(other.clientId, first.code, first.verifier))).to.equal('invalid_grant');
      expect(
        await oauthErrorOf(
          h.oauth.issueTokens.execute({
            grantType: 'authorization_code',
            code: first.code,
            codeVerifier: first.verifier,
            redirectUri: 'https://client.example/other',
            client: { clientId: client.clientId, via: 'none' },
            site: SITE,
          }),
        ),
      ).to.equal('invalid_grant');
      const late = await h.authorize(client.clientId, ada);
      h.clock.advance(61_000);
      expect(await oauthErrorOf(h.exchange(client.clientId, late.code, late.verifier))).to.equal('invalid_grant');
    });

    it('revokes the tokens a code gave when the code is presented again', async () => {
      const h = doorHarness();
      const client = await h.register();
      const { code, verifier } = await h.authorize(client.clientId, ada);
      const tokens = await h.exchange(client.clientId, code, verifier);
      expect(await oauthErrorOf(h.exchange(client.clientId, code, verifier))).to.equal('invalid_grant');
      expect(await h.admit(tokens.accessToken)).to.deep.equal({ ok: false, reason: 'invalid' });
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken))).to.equal('invalid_grant');
    });

    it('authenticates a confidential client by its secret (401 invalid_client otherwise)', async () => {
      const h = doorHarness();
      const client = await h.register({ tokenEndpointAuthMethod: 'client_secret_basic' });
      const grant = await h.authorize(client.clientId, ada);
      const refused = await h
        .exchange(client.clientId, grant.code, grant.verifier, { clientSecret: 'wrong' })
        .catch((error: unknown) => error);
      expect(refused).to.deep.include({ oauthError: 'invalid_client', status: 401 });
      expect(await oauthErrorOf(h.exchange(client.clientId, grant.code, grant.verifier))).to.equal('invalid_client');
      expect((await h.exchange(client.clientId, grant.code, grant.verifier, { clientSecret: client.clientSecret! })).tokenType).to.equal(
        'Bearer',
      );
    });
  });

  describe('/token: refresh rotation', () => {
    it('rotates on every refresh; the new tokens work', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const next = await h.refresh(client.clientId, tokens.refreshToken);
      expect(next.refreshToken).to.not.equal(tokens.refreshToken);
      expect((await h.admit(next.accessToken)).ok).to.equal(true);
      const after = await h.refresh(client.clientId, next.refreshToken);
      expect((await h.admit(after.accessToken)).ok).to.equal(true);
    });

    it('revokes the whole family when a rotated refresh token is presented again after the grace window', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const next = await h.refresh(client.clientId, tokens.refreshToken);
      h.clock.advance(10_001);
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken))).to.equal('invalid_grant');
      expect(await h.admit(next.accessToken)).to.deep.equal({ ok: false, reason: 'invalid' });
      expect(await oauthErrorOf(h.refresh(client.clientId, next.refreshToken))).to.equal('invalid_grant');
      const events = (await h.guard.auditLog.list('ada', {})).events.map((e) => e.action);
      expect(events).to.include('door.refresh-token-reused');
    });

    it('without a grace window, revokes the family when a rotated refresh token comes back right after the rotation', async () => {
      const h = doorHarness({ settings: { refreshGraceSeconds: 0 } });
      const { client, tokens } = await h.connect(ada);
      const next = await h.refresh(client.clientId, tokens.refreshToken);
      h.clock.advance(1); // the replay arrives after the rotation was answered, however soon
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken))).to.equal('invalid_grant');
      expect(await h.admit(next.accessToken)).to.deep.equal({ ok: false, reason: 'invalid' });
      expect(await oauthErrorOf(h.refresh(client.clientId, next.refreshToken))).to.equal('invalid_grant');
    });

    it('without a grace window, refuses the loser of a race without revoking anything', async () => {
      const h = doorHarness({ settings: { refreshGraceSeconds: 0 } });
      const { client, tokens } = await h.connect(ada);
      const arrived = h.clock.now().toISOString();
      h.clock.advance(5);
      const next = await h.refresh(client.clientId, tokens.refreshToken);
      h.clock.advance(5);
      // Reached the door before the rotation, processed after it: refused, nothing revoked.
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken, arrived))).to.equal('invalid_grant');
      expect((await h.admit(next.accessToken)).ok).to.equal(true);
      // Reached the door after the rotation: a replay.
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken))).to.equal('invalid_grant');
      expect((await h.admit(next.accessToken)).ok).to.equal(false);
    });

    it('revokes the family when another client presents its refresh token', async () => {
      const h = doorHarness();
      const { tokens } = await h.connect(ada);
      const thief = await h.register();
      expect(await oauthErrorOf(h.refresh(thief.clientId, tokens.refreshToken))).to.equal('invalid_grant');
      expect((await h.admit(tokens.accessToken)).ok).to.equal(false);
    });
  });

  describe('the refresh grace window', () => {
    it('gives the token just rotated out, presented again by its client within the window, working tokens and revokes nothing', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const next = await h.refresh(client.clientId, tokens.refreshToken);
      h.clock.advance(9_000);
      const again = await h.refresh(client.clientId, tokens.refreshToken);
      expect(again).to.include({ tokenType: 'Bearer', scope: 'mcp' });
      expect(again.refreshToken).to.not.equal(next.refreshToken);
      expect((await h.admit(next.accessToken)).ok, "the rotation's tokens still work").to.equal(true);
      expect((await h.admit(again.accessToken)).ok, "the window's tokens work").to.equal(true);
      const family = (await h.store.records<{ generation: number; revokedAt: string | null }>('door-token-families').list()).items[0]!.data;
      expect(family, 'one rotation, nothing revoked').to.deep.include({ generation: 2, revokedAt: null });
      // Either successor refresh token carries the family on; the other is then the one rotated out.
      const third = await h.refresh(client.clientId, again.refreshToken);
      expect((await h.admit(third.accessToken)).ok).to.equal(true);
      const events = (await h.guard.auditLog.list('ada', {})).events.map((e) => e.action);
      expect(events).to.include('door.refresh-graced');
      expect(events).to.not.include('door.refresh-token-reused');
    });

    it('forgives FORGIVEN_REPLAYS replays of the token just rotated out; the next replay revokes the family', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const next = await h.refresh(client.clientId, tokens.refreshToken);
      const forgiven = [];
      for (let i = 0; i < FORGIVEN_REPLAYS; i++) {
        h.clock.advance(500);
        forgiven.push(await h.refresh(client.clientId, tokens.refreshToken));
      }
      for (const grant of forgiven) expect((await h.admit(grant.accessToken)).ok, 'every forgiven pair works').to.equal(true);
      h.clock.advance(500);
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken)), 'the replay after those').to.equal('invalid_grant');
      for (const grant of [next, ...forgiven]) {
        expect(await h.admit(grant.accessToken)).to.deep.equal({ ok: false, reason: 'invalid' });
        expect(await oauthErrorOf(h.refresh(client.clientId, grant.refreshToken))).to.equal('invalid_grant');
      }
      const events = (await h.guard.auditLog.list('ada', {})).events.map((e) => e.action);
      expect(events.filter((action) => action === 'door.refresh-graced')).to.have.length(FORGIVEN_REPLAYS);
      expect(events).to.include('door.refresh-token-reused');
    });

    it('gives a stolen refresh token, replayed twenty times inside the window, at most FORGIVEN_REPLAYS pairs, then revokes the family', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const next = await h.refresh(client.clientId, tokens.refreshToken);
      const answers = [];
      for (let i = 0; i < 20; i++) {
        h.clock.advance(100);
        answers.push(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken)));
      }
      expect(answers.filter((answer) => answer === 'resolved')).to.have.length.at.most(FORGIVEN_REPLAYS);
      expect(answers.slice(FORGIVEN_REPLAYS)).to.deep.equal(Array(20 - FORGIVEN_REPLAYS).fill('invalid_grant'));
      expect((await h.admit(next.accessToken)).ok, 'the family is revoked').to.equal(false);
    });

    it('answers every request that raced the rotation without spending the replays it forgives', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const arrived = h.clock.now().toISOString();
      h.clock.advance(5);
      await h.refresh(client.clientId, tokens.refreshToken);
      for (let i = 0; i < FORGIVEN_REPLAYS + 3; i++)
        expect((await h.refresh(client.clientId, tokens.refreshToken, arrived)).tokenType, 'a racer').to.equal('Bearer');
      for (let i = 0; i < FORGIVEN_REPLAYS; i++) {
        h.clock.advance(5);
        expect((await h.refresh(client.clientId, tokens.refreshToken)).tokenType, `replay ${i + 1}`).to.equal('Bearer');
      }
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken)), 'the replay after those').to.equal('invalid_grant');
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken, arrived)), 'the family is gone').to.equal('invalid_grant');
    });

    it('counts per rotation: the next rotation opens a window of its own', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const second = await h.refresh(client.clientId, tokens.refreshToken);
      for (let i = 0; i < FORGIVEN_REPLAYS; i++) await h.refresh(client.clientId, tokens.refreshToken);
      h.clock.advance(20_000);
      const third = await h.refresh(client.clientId, second.refreshToken);
      for (let i = 0; i < FORGIVEN_REPLAYS; i++)
        expect((await h.refresh(client.clientId, second.refreshToken)).tokenType, `the next rotation's replay ${i + 1}`).to.equal('Bearer');
      expect((await h.admit(third.accessToken)).ok).to.equal(true);
    });

    it('counts from when the request reached the door: a request under way before the rotation is inside it', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const arrived = h.clock.now().toISOString();
      h.clock.advance(5);
      await h.refresh(client.clientId, tokens.refreshToken);
      h.clock.advance(60_000);
      expect((await h.refresh(client.clientId, tokens.refreshToken, arrived)).tokenType).to.equal('Bearer');
    });

    it('is a replay for a token two rotations behind, even inside the window', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const second = await h.refresh(client.clientId, tokens.refreshToken);
      const third = await h.refresh(client.clientId, second.refreshToken);
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken))).to.equal('invalid_grant');
      expect((await h.admit(third.accessToken)).ok).to.equal(false);
    });

    it('is theft when another client presents the token, even inside the window', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const next = await h.refresh(client.clientId, tokens.refreshToken);
      const thief = await h.register();
      expect(await oauthErrorOf(h.refresh(thief.clientId, tokens.refreshToken))).to.equal('invalid_grant');
      expect((await h.admit(next.accessToken)).ok).to.equal(false);
      expect(await oauthErrorOf(h.refresh(client.clientId, next.refreshToken))).to.equal('invalid_grant');
    });

    it('never revives a revoked family', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const next = await h.refresh(client.clientId, tokens.refreshToken);
      await h.oauth.revokeToken.execute({ token: next.refreshToken, client: { clientId: client.clientId, via: 'none' } });
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken))).to.equal('invalid_grant');
    });
  });

  for (const [name, open] of pairedStoreKinds('porter-door-race-')) {
    describe(`racing refreshes from two instances on ${name}`, function () {
      this.timeout(60_000);
      const opened = pairedStoresPerSuite(open);
      const clock = new ManualClock('2026-06-01T12:00:00.000Z');

      /** The door on each of the two stores (two instances), agreeing on the time. */
      const instances = (settings: { refreshGraceSeconds?: number } = {}) =>
        opened().stores.map((store) => doorHarness({ store, clock, settings })) as [DoorHarness, DoorHarness];

      /** `count` refreshes of one token, alternating between the instances, all at once. */
      async function race(pair: [DoorHarness, DoorHarness], clientId: string, refreshToken: string, count: number) {
        const settled = await Promise.allSettled(Array.from({ length: count }, (_, i) => pair[i % 2]!.refresh(clientId, refreshToken)));
        const grants = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
        const refusals = settled.flatMap((s) =>
          s.status === 'rejected' ? [(s.reason as { oauthError?: string }).oauthError ?? String(s.reason)] : [],
        );
        return { grants, refusals };
      }

      /**
       * A new authorization whose refresh token one instance rotates, then `count` replays of the
       * token rotated out racing inside the window: the rotation's tokens, the replays' outcome and
       * the family as they left it.
       */
      async function rotatedThenReplayed(pair: [DoorHarness, DoorHarness], count: number) {
        const { client, tokens } = await pair[0].connect(ada);
        const next = await pair[1].refresh(client.clientId, tokens.refreshToken);
        clock.advance(1);
        const raced = await race(pair, client.clientId, tokens.refreshToken, count);
        return { next, ...raced, family: await familyOf(pair[0], tokens.refreshToken) };
      }

      async function familyOf(h: DoorHarness, refreshToken: string) {
        const { familyId } = (await h.families.findRefreshToken(h.secrets.digest(refreshToken)))!;
        return (await h.families.find(familyId))!.family.toPrimitives();
      }

      it('twelve racers: one rotation, every racer answered, nothing revoked; a late replay then revokes', async () => {
        const pair = instances();
        for (let round = 0; round < 5; round++) {
          const { client, tokens } = await pair[round % 2]!.connect(ada);
          const { grants, refusals } = await race(pair, client.clientId, tokens.refreshToken, 12);
          expect(refusals, `round ${round}: every racer gets tokens`).to.deep.equal([]);
          for (const grant of grants) expect((await pair[0].admit(grant.accessToken)).ok, `round ${round}`).to.equal(true);
          expect(await familyOf(pair[0], tokens.refreshToken), `round ${round}: one rotation`).to.deep.include({
            generation: 2,
            revokedAt: null,
          });
          // Past the window, the same token raced again by many: a replay, the family revoked once.
          clock.advance(10_001);
          const replays = await race(pair, client.clientId, tokens.refreshToken, 6);
          expect(replays.grants).to.deep.equal([]);
          expect((await familyOf(pair[1], tokens.refreshToken)).revokedAt).to.be.a('string');
          for (const grant of grants) expect((await pair[1].admit(grant.accessToken)).ok).to.equal(false);
        }
      });

      it('replays racing inside the window, as many as are forgiven: every one answered, nothing revoked', async () => {
        const pair = instances();
        for (let round = 0; round < 5; round++) {
          const { next, grants, refusals, family } = await rotatedThenReplayed(pair, FORGIVEN_REPLAYS);
          expect(refusals, `round ${round}: every replay under the cap gets tokens`).to.deep.equal([]);
          expect(family, `round ${round}`).to.deep.include({
            generation: 2,
            graced: FORGIVEN_REPLAYS,
            revokedAt: null,
          });
          for (const grant of [next, ...grants]) expect((await pair[1].admit(grant.accessToken)).ok, `round ${round}`).to.equal(true);
        }
      });

      it('more replays racing inside the window than are forgiven: exactly FORGIVEN_REPLAYS forgiven, and the family revoked', async () => {
        const pair = instances();
        for (let round = 0; round < 5; round++) {
          const { next, grants, refusals, family } = await rotatedThenReplayed(pair, FORGIVEN_REPLAYS + 4);
          expect(family.graced, `round ${round}: every forgiveness claimed, no more`).to.equal(FORGIVEN_REPLAYS);
          expect(family.revokedAt, `round ${round}`).to.be.a('string');
          // A forgiven replay whose mint ends after the revocation is refused too: its tokens would be dead.
          expect(grants.length, `round ${round}`).to.be.at.most(FORGIVEN_REPLAYS);
          expect(refusals, `round ${round}`).to.deep.equal(Array(FORGIVEN_REPLAYS + 4 - grants.length).fill('invalid_grant'));
          for (const grant of [next, ...grants]) expect((await pair[0].admit(grant.accessToken)).ok, `round ${round}`).to.equal(false);
        }
      });

      it('with the window at 0, twelve racers: exactly one winner, the rest refused, nothing revoked', async () => {
        const pair = instances({ refreshGraceSeconds: 0 });
        for (let round = 0; round < 5; round++) {
          const { client, tokens } = await pair[round % 2]!.connect(ada);
          const { grants, refusals } = await race(pair, client.clientId, tokens.refreshToken, 12);
          expect(grants, `round ${round}`).to.have.length(1);
          expect(refusals, `round ${round}`).to.deep.equal(Array(11).fill('invalid_grant'));
          expect(await familyOf(pair[1], tokens.refreshToken), `round ${round}`).to.deep.include({ generation: 2, revokedAt: null });
          expect((await pair[0].admit(grants[0]!.accessToken)).ok, `round ${round}`).to.equal(true);
          expect(
            (await pair[1].refresh(client.clientId, grants[0]!.refreshToken)).tokenType,
            `round ${round}: the family goes on`,
          ).to.equal('Bearer');
        }
      });
    });
  }

  describe('/revoke (RFC 7009)', () => {
    it('revoking a refresh token revokes its family; revoking again (a token that no longer exists) still lands', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      await h.oauth.revokeToken.execute({
        token: tokens.refreshToken,
        tokenTypeHint: 'refresh_token',
        client: { clientId: client.clientId, via: 'none' },
      });
      expect((await h.admit(tokens.accessToken)).ok).to.equal(false);
      expect(await oauthErrorOf(h.refresh(client.clientId, tokens.refreshToken))).to.equal('invalid_grant');
      await h.oauth.revokeToken.execute({ token: tokens.refreshToken, client: { clientId: client.clientId, via: 'none' } });
      await h.oauth.revokeToken.execute({ token: 'never-issued', client: { clientId: client.clientId, via: 'none' } });
    });

    it('revoking an access token drops just that token; the refresh token still works', async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      await h.oauth.revokeToken.execute({ token: tokens.accessToken, client: { clientId: client.clientId, via: 'none' } });
      expect((await h.admit(tokens.accessToken)).ok).to.equal(false);
      expect((await h.admit((await h.refresh(client.clientId, tokens.refreshToken)).accessToken)).ok).to.equal(true);
    });

    it("answers 400 for a missing token or client_id, an unknown client, and another client's token", async () => {
      const h = doorHarness();
      const { client, tokens } = await h.connect(ada);
      const other = await h.register();
      const refusal = (promise: Promise<unknown>) =>
        promise.then(
          () => 'resolved',
          (error: { oauthError: string; status: number }) => `${error.status} ${error.oauthError}`,
        );
      expect(await refusal(h.oauth.revokeToken.execute({ client: { clientId: client.clientId, via: 'none' } }))).to.equal(
        '400 invalid_request',
      );
      expect(await refusal(h.oauth.revokeToken.execute({ token: tokens.accessToken, client: { via: 'none' } }))).to.equal(
        '400 invalid_request',
      );
      expect(
        await refusal(h.oauth.revokeToken.execute({ token: tokens.accessToken, client: { clientId: 'mcpc_unknown0000', via: 'none' } })),
      ).to.equal('400 invalid_client');
      expect(
        await refusal(h.oauth.revokeToken.execute({ token: tokens.refreshToken, client: { clientId: other.clientId, via: 'none' } })),
      ).to.equal('400 unauthorized_client');
      expect((await h.admit(tokens.accessToken)).ok, 'the refused revocations changed nothing').to.equal(true);
    });

    it('answers 400 on a store whose records lack atomic claims, revoking nothing', async () => {
      const store = new MemoryStore({ clock: new ManualClock(), atomic: false });
      const h = doorHarness({ store });
      const client = await h.register();
      const refused = await h.oauth.revokeToken
        .execute({ token: 'anything', client: { clientId: client.clientId, via: 'none' } })
        .catch((error: unknown) => error);
      expect(refused).to.deep.include({ oauthError: 'temporarily_unavailable', status: 400 });
    });
  });
});
