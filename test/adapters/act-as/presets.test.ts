import { expect } from 'chai';
import { decode } from '@auth/core/jwt';
import { jwtVerify, SignJWT } from 'jose';
import { authjsSession } from '../../../adapters/act-as/authjs-session.js';
import { hs256Jwt } from '../../../adapters/act-as/hs256-jwt.js';
import { ACT_AS_HEADER, actAsVerifier, hostedIdentity } from '../../../adapters/act-as/hosted-identity.js';
import { synthesizeRequest } from '../../../adapters/http/synthetic-request.js';

const SECRET = 'a-shared-secret-of-at-least-32-characters!';
const ada = { subject: 'ada', kind: 'user', email: 'ada@example.com', name: 'Ada' };

/** An act-as token made by hand, as Porter's would be but for what `times` sets and the `secret` it is signed with. */
function actAsToken(subject: string, secret: string, times: (jwt: SignJWT) => SignJWT): Promise<string> {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(subject).setIssuer('porter').setAudience('porter-act-as');
  return times(jwt).sign(new TextEncoder().encode(secret));
}

describe('act-as presets', () => {
  describe('authjsSession (session library)', () => {
    it('mints a session cookie Auth.js itself decodes as the user', async () => {
      const material = await authjsSession({ secret: SECRET }).mint(ada);
      const [name, value] = material.headers.cookie!.split('=');
      expect(name).to.equal('authjs.session-token');
      const token = await decode({ token: value, secret: SECRET, salt: 'authjs.session-token' });
      expect(token).to.deep.include({ sub: 'ada', email: 'ada@example.com', name: 'Ada' });
      expect(material.expiresAt).to.be.greaterThan(Date.now());
    });

    it('mints a cookie another secret cannot open', async () => {
      const material = await authjsSession({ secret: SECRET }).mint(ada);
      const value = material.headers.cookie!.split('=')[1]!;
      let rejected: boolean;
      try {
        rejected = (await decode({ token: value, secret: `${SECRET}-other`, salt: 'authjs.session-token' })) === null;
      } catch {
        rejected = true;
      }
      expect(rejected).to.equal(true);
    });
  });

  describe('hs256Jwt (any HS256 provider)', () => {
    it("signs the subject and the provider's claims into a bearer token", async () => {
      const material = await hs256Jwt({ secret: SECRET, audience: 'authenticated', claims: () => ({ role: 'authenticated' }) }).mint(ada);
      const token = material.headers.authorization!.replace('Bearer ', '');
      const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET), { audience: 'authenticated' });
      expect(protectedHeader.alg).to.equal('HS256');
      expect(payload).to.deep.include({ sub: 'ada', role: 'authenticated' });
    });

    it('changes fingerprint when the secret rotates', () => {
      let secret = SECRET;
      const preset = hs256Jwt({ secret: () => secret });
      const before = preset.fingerprint;
      secret = `${SECRET}-v2`;
      expect(preset.fingerprint).to.not.equal(before);
      expect(before).to.not.contain(SECRET.slice(0, 8));
    });
  });

  describe('hostedIdentity and its verify middleware', () => {
    it('swaps a valid token for the identity headers the host trusts', async () => {
      const preset = hostedIdentity({ secret: SECRET });
      const material = await preset.mint(ada);
      const seen = await preset.asHostSees(synthesizeRequest({ method: 'GET', path: '/x', headers: { ...material.headers } }));
      expect(seen.headers).to.deep.include({ 'x-user-id': 'ada', 'x-user-email': 'ada@example.com', 'x-user-name': 'Ada' });
      expect(seen.headers[ACT_AS_HEADER]).to.equal(undefined);
    });

    it('strips identity headers set by hand and ignores a forged token', async () => {
      const verify = actAsVerifier({ secret: SECRET });
      const forged = await actAsToken('root', `${SECRET}-wrong`, (jwt) => jwt.setExpirationTime('1m'));
      const headers = await verify({ 'x-user-id': 'root', [ACT_AS_HEADER]: forged, accept: 'application/json' });
      expect(headers['x-user-id']).to.equal(undefined);
      expect(headers.accept).to.equal('application/json');
    });

    it('refuses an expired token', async () => {
      const verify = actAsVerifier({ secret: SECRET });
      const expired = await actAsToken('ada', SECRET, (jwt) => jwt.setIssuedAt(1).setExpirationTime(2));
      expect((await verify({ [ACT_AS_HEADER]: expired }))['x-user-id']).to.equal(undefined);
    });
  });
});
