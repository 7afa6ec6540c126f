import { expect } from 'chai';
import { isCodeVerifier, isS256Challenge } from '../../../domain/door/pkce.js';
import { redirectUriMatches, redirectUriProblem } from '../../../domain/door/redirect-uri.js';
import { grantedScope } from '../../../domain/door/door-scope.js';
import { keptAuthMethod, keptGrantTypes, keptResponseTypes } from '../../../domain/door/client-metadata.js';
import { hintsFor } from '../../../domain/door/tool-annotations.js';
import { FORGIVEN_REPLAYS, TokenFamily } from '../../../domain/door/token-family.js';

describe('door rules', () => {
  describe('PKCE', () => {
    it('accepts exactly 43 base64url characters as an S256 challenge', () => {
      const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
      for (const [offered, valid] of [
        [challenge, true],
        [challenge.slice(0, -1), false],
        [`${challenge}x`, false],
        [challenge.replace('-', '+'), false],
        [`${challenge.slice(0, -1)}=`, false],
        [undefined, false],
      ] as const)
        expect(isS256Challenge(offered), String(offered)).to.equal(valid);
    });

    it('accepts verifiers of 43 to 128 unreserved characters', () => {
      expect(isCodeVerifier('a'.repeat(43))).to.equal(true);
      expect(isCodeVerifier('a'.repeat(128))).to.equal(true);
      expect(isCodeVerifier('a'.repeat(42))).to.equal(false);
      expect(isCodeVerifier(`${'a'.repeat(42)} `)).to.equal(false);
    });
  });

  describe('redirect URIs', () => {
    it('allows https, loopback http and app schemes; refuses the rest with a reason', () => {
      for (const uri of [
        'https://claude.ai/api/mcp/auth_callback',
        'http://127.0.0.1:33418/callback',
        'http://localhost:6274/oauth/callback',
        'cursor://anysphere.cursor-retrieval/oauth/callback',
      ])
        expect(redirectUriProblem(uri), uri).to.equal(null);
      for (const [uri, reason] of [
        ['http://evil.example/cb', 'not loopback'],
        ['javascript:alert(1)', 'javascript:'],
        ['https://client.example/cb#frag', 'fragment'],
        ['/relative', 'absolute'],
        ['https://user:pw@client.example/cb', 'credentials'],
      ] as const)
        expect(redirectUriProblem(uri), uri).to.contain(reason);
    });

    it('matches exactly, except loopback http on any port (RFC 8252)', () => {
      expect(redirectUriMatches('https://client.example/cb', 'https://client.example/cb')).to.equal(true);
      expect(redirectUriMatches('https://client.example/cb', 'https://client.example/cb/')).to.equal(false);
      expect(redirectUriMatches('https://client.example/cb', 'https://client.example/cb?x=1')).to.equal(false);
      expect(redirectUriMatches('http://127.0.0.1:1000/cb', 'http://127.0.0.1:5555/cb')).to.equal(true);
      expect(redirectUriMatches('http://127.0.0.1:1000/cb', 'http://127.0.0.1:5555/other')).to.equal(false);
      expect(redirectUriMatches('http://127.0.0.1:1000/cb', 'http://localhost:1000/cb')).to.equal(false);
    });
  });

  it('grants the mcp scope whatever is asked, naming what it dropped', () => {
    expect(grantedScope(undefined)).to.deep.equal({ scope: 'mcp', dropped: [] });
    expect(grantedScope('mcp mcp')).to.deep.equal({ scope: 'mcp', dropped: [] });
    expect(grantedScope('mcp offline_access')).to.deep.equal({ scope: 'mcp', dropped: ['offline_access'] });
    expect(grantedScope('claudeai')).to.deep.equal({ scope: 'mcp', dropped: ['claudeai'] });
  });

  it('keeps the grant types, response types and authentication methods the door does, replacing the rest', () => {
    const deviceCode = 'urn:ietf:params:oauth:grant-type:device_code';
    expect(keptGrantTypes(undefined)).to.deep.equal(['authorization_code', 'refresh_token']);
    expect(keptGrantTypes(['authorization_code', 'refresh_token', deviceCode])).to.deep.equal(['authorization_code', 'refresh_token']);
    expect(keptGrantTypes(['authorization_code', 'implicit'])).to.deep.equal(['authorization_code']);
    expect(keptGrantTypes(['client_credentials'])).to.deep.equal(['authorization_code', 'refresh_token']);
    expect(keptGrantTypes(['refresh_token'])).to.deep.equal(['authorization_code', 'refresh_token']);
    expect(keptResponseTypes()).to.deep.equal(['code']);
    expect(keptAuthMethod('client_secret_basic')).to.equal('client_secret_basic');
    expect(keptAuthMethod('private_key_jwt')).to.equal('none');
    expect(keptAuthMethod(undefined)).to.equal('none');
  });

  it('annotates tools from their declared risk and egress', () => {
    expect(hintsFor({ risk: 'read' })).to.deep.equal({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect(hintsFor({ risk: 'write' })).to.deep.equal({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    expect(hintsFor({ risk: 'destructive' })).to.deep.equal({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    expect(hintsFor({ risk: 'read', egress: true })).to.deep.equal({ readOnlyHint: true, destructiveHint: false, openWorldHint: true });
    // A read-class tool that says it writes, or whose risk may rise at call time, is never read-only.
    expect(hintsFor({ risk: 'read', readOnly: false }).readOnlyHint).to.equal(false);
    expect(hintsFor({ risk: 'read', resolvesRisk: true }).readOnlyHint).to.equal(false);
    expect(hintsFor({ risk: 'read', resolvesRisk: true, readOnly: true }).readOnlyHint).to.equal(true);
    expect(hintsFor({ risk: 'write', readOnly: true }).readOnlyHint).to.equal(false);
  });

  describe('token families', () => {
    const family = () =>
      TokenFamily.start({
        id: 'f1',
        clientId: 'mcpc_1',
        subject: 'ada',
        scope: 'mcp',
        resource: 'r',
        consentId: 'c',
        evidence: 'consent:x',
        createdAt: '2026-01-01T00:00:00.000Z',
        expiresAt: '2026-02-01T00:00:00.000Z',
      });

    it('moves its generation on at every rotation; earlier generations are stale', () => {
      const rotated = family().rotate('2026-01-01T00:10:00.000Z').rotate('2026-01-01T00:20:00.000Z');
      expect(rotated.generation).to.equal(3);
      expect(rotated.isStale(2)).to.equal(true);
      expect(rotated.isStale(3)).to.equal(false);
    });

    it('tells a client racing itself from a replay: a race loser was already under way when the family rotated', () => {
      const rotated = family().rotate('2026-01-01T00:10:00.000Z');
      expect(rotated.isRaceLoser(1, '2026-01-01T00:09:59.990Z')).to.equal(true);
      expect(rotated.isRaceLoser(1, '2026-01-01T00:10:00.000Z')).to.equal(true);
      expect(rotated.isRaceLoser(1, '2026-01-01T00:10:00.001Z')).to.equal(false);
      expect(rotated.rotate('2026-01-01T00:10:01.000Z').isRaceLoser(1, '2026-01-01T00:10:00.500Z')).to.equal(false);
      expect(family().isRaceLoser(1, '2026-01-01T00:00:00.000Z')).to.equal(false);
    });

    it('forgives FORGIVEN_REPLAYS replays of the token just rotated out per rotation; every rotation counts afresh', () => {
      const opened = '2026-01-01T00:09:55.000Z';
      let rotated = family().rotate('2026-01-01T00:10:00.000Z');
      for (let i = 0; i < FORGIVEN_REPLAYS; i++) {
        expect(rotated.isWithinGrace(1, opened), `replay ${i + 1}`).to.equal(true);
        rotated = rotated.forgive('2026-01-01T00:10:01.000Z');
      }
      expect(rotated).to.include({ graced: FORGIVEN_REPLAYS, graceSpent: true });
      expect(rotated.isWithinGrace(1, opened), 'the replay after those').to.equal(false);
      expect(() => rotated.forgive('2026-01-01T00:10:02.000Z')).to.throw();
      const next = rotated.rotate('2026-01-01T00:10:03.000Z');
      expect(next).to.include({ graced: 0, graceSpent: false });
      expect(next.isWithinGrace(2, opened)).to.equal(true);
      expect(next.isWithinGrace(1, opened), 'two rotations behind').to.equal(false);
    });

    it('reads a family stored before the window counted its replays: gracedAt alone is one forgiven', () => {
      const { graced: _, ...stored } = family().rotate('2026-01-01T00:10:00.000Z').toPrimitives();
      expect(TokenFamily.fromPrimitives({ ...stored, gracedAt: null }).graced).to.equal(0);
      expect(TokenFamily.fromPrimitives({ ...stored, gracedAt: '2026-01-01T00:10:01.000Z' }).graced).to.equal(1);
      const { gracedAt: __, ...older } = stored;
      expect(TokenFamily.fromPrimitives(older).graced).to.equal(0);
    });

    it('is live until revoked or past its absolute end', () => {
      expect(family().isLiveAt('2026-01-15T00:00:00.000Z')).to.equal(true);
      expect(family().isLiveAt('2026-02-01T00:00:00.000Z')).to.equal(false);
      expect(family().revoke('2026-01-02T00:00:00.000Z', 'revoked').isLiveAt('2026-01-03T00:00:00.000Z')).to.equal(false);
    });
  });
});
