import { expect } from 'chai';
import { jwtVerify } from 'jose';
import { hs256Jwt } from '../../adapters/act-as/hs256-jwt.js';
import { hostPerTest } from '../support/host-per-test.js';
import type { WireRequest } from '../../ports/wire-request.js';

const SECRET = 'the-host-jwt-secret-that-is-long-enough';
const env = {
  NODE_ENV: 'development',
  PORTER_DATABASE_URL: 'sqlite::memory:',
  PORTER_SECRET: 'a-development-secret-for-the-tests-0123456789',
};

/** A host resolver that accepts the host's own JWTs, as a real host with JWT auth does. */
async function jwtResolver(request: WireRequest) {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return null;
  try {
    const { payload } = await jwtVerify(header.slice(7), new TextEncoder().encode(SECRET));
    return typeof payload.sub === 'string' ? { subject: payload.sub, kind: 'user' } : null;
  } catch {
    return null;
  }
}

describe('doctor routes on the development host', () => {
  const startHost = hostPerTest(env);

  it('present: reports that authorization and cookie reached the host on a same-origin call', async () => {
    const host = await startHost({ baseUrl: true });
    const response = await fetch(`${host.url}/api/porter/doctor/present`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer user-token', cookie: 'porter_demo_user=ada' },
      body: '{}',
    });
    expect(await response.json()).to.deep.equal({ baseUrlSet: true, reached: true, authorization: true, cookie: true });
  });

  it('present: reports nothing reached the host without PORTER_BASE_URL, in booleans only', async () => {
    const host = await startHost();
    const response = await fetch(`${host.url}/api/porter/doctor/present`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
      body: '{}',
    });
    expect(await response.json()).to.deep.equal({ baseUrlSet: false, reached: false, authorization: false, cookie: false });
  });

  it('act-as: the material the preset mints is accepted by the host resolver as the same subject', async () => {
    const host = await startHost({ porter: { actAs: hs256Jwt({ secret: SECRET }), principal: jwtResolver } });
    const response = await fetch(`${host.url}/api/porter/doctor/act-as`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'ada' }),
    });
    expect(await response.json()).to.deep.equal({ configured: true, minted: true, accepted: true, subjectMatches: true });
  });

  it('act-as: reports a resolver that does not accept the material', async () => {
    const host = await startHost({ porter: { actAs: hs256Jwt({ secret: `${SECRET}-wrong` }), principal: jwtResolver } });
    const response = await fetch(`${host.url}/api/porter/doctor/act-as`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await response.json()).to.deep.equal({ configured: true, minted: true, accepted: false, subjectMatches: false });
  });

  it('hides present and act-as in production, keeps base-url', async () => {
    const host = await startHost({ env: { NODE_ENV: 'production' } });
    expect(
      (await fetch(`${host.url}/api/porter/doctor/act-as`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
        .status,
    ).to.equal(404);
    expect(
      (
        await fetch(`${host.url}/api/porter/doctor/present`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).to.equal(404);
    expect((await fetch(`${host.url}/api/porter/doctor/base-url`)).status).to.equal(200);
  });
});
