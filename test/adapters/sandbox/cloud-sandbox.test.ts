import { expect } from 'chai';
import { CloudSandbox } from '../../../adapters/sandbox/cloud/cloud-sandbox.js';
import { startCloudServer } from '../../support/sandbox-cloud-server.js';
import { servedBehavesAsSandbox, servedSandboxPerTest, type SandboxSettings } from './sandbox-behaviour.js';
import { callFn, nodeApp } from '../../support/sandbox-apps.js';

const TOKEN = 'cloud-token-0123456789abcdef0123456789';

/** A server that shows the Authorization header it was given. */
const authorizationEcho = [
  {
    path: '/app/server.js',
    content: `require('node:http').createServer((q, r) => { r.setHeader('content-type', 'application/json'); r.end(JSON.stringify({ authorization: q.headers.authorization || null, status: q.url })); }).listen(Number(process.env.PORT));`,
  },
];

/** A CloudSandbox and a fresh local server implementing the API it calls. */
async function cloudServed(settings: SandboxSettings) {
  const server = await startCloudServer({ token: TOKEN, resolve: settings.resolve });
  return { server, sandbox: new CloudSandbox({ url: server.url, token: TOKEN, startTimeoutMs: settings.startTimeoutMs }) };
}

describe('CloudSandbox (docs/sandbox-cloud-api.md, against a local server implementing it)', () => {
  describe('through the Sandbox port', () => {
    // The local server runs apps on the local sandbox, which starts a new server beside the old one.
    servedBehavesAsSandbox(cloudServed, { sideBySide: true });
  });

  describe('over the API', () => {
    const served = servedSandboxPerTest(cloudServed);

    it('reports status kind cloud', () => {
      expect(served.sandbox().kind).to.equal('cloud');
    });

    it('sends the bearer token on every call, and a wrong token fails cleanly', async () => {
      const session = await served.sandbox().open('app_auth', { egress: null });
      await session.writeFiles(nodeApp('auth'));
      await session.start();
      expect(served.server().requests.every((request) => request.authorization === `Bearer ${TOKEN}`)).to.equal(true);
      const wrong = new CloudSandbox({ url: served.server().url, token: 'not-the-token' });
      await wrong.open('app_auth', { egress: null }).then(
        () => expect.fail('a wrong token should be refused'),
        (error: Error) => {
          expect(error.message).to.contain('401 unauthorized');
          expect(error.message).to.not.contain('not-the-token');
        },
      );
    });

    it("keeps the API credential from the app, and carries the caller's own Authorization to it", async () => {
      const session = await served.sandbox().open('app_headers', { egress: null });
      await session.writeFiles(authorizationEcho);
      await session.start();
      const plain = await (await session.fetch('/fn/x', { method: 'POST' })).json();
      expect(plain).to.deep.equal({ authorization: null, status: '/fn/x' });
      const own = await (await session.fetch('/fn/y?z=1', { method: 'POST', headers: { authorization: 'Basic dXNlcjpwYXNz' } })).json();
      expect(own).to.deep.equal({ authorization: 'Basic dXNlcjpwYXNz', status: '/fn/y?z=1' });
      expect(served.server().requests.at(-1)!.authorization).to.equal(`Bearer ${TOKEN}`);
    });

    it('tells a stopped server apart from an app that answers 502 itself', async () => {
      const session = await served.sandbox().open('app_502', { egress: null });
      await session.writeFiles([
        {
          path: '/app/server.js',
          content: `require('node:http').createServer((q, r) => { r.statusCode = 502; r.end('app says bad gateway'); }).listen(Number(process.env.PORT));`,
        },
      ]);
      await session.start();
      const own = await session.fetch('/');
      expect(own.status).to.equal(502);
      expect(await own.text()).to.equal('app says bad gateway');
      await session.close();
      await session.fetch('/').then(
        () => expect.fail('a stopped server should not answer'),
        (error: Error) => expect(error.message).to.contain('not running'),
      );
    });

    it('refuses a plain http service URL that is not loopback (the token would travel in the clear)', () => {
      expect(() => new CloudSandbox({ url: 'http://sandboxes.example.com', token: TOKEN })).to.throw(/https/);
      expect(() => new CloudSandbox({ url: 'https://sandboxes.example.com', token: TOKEN })).to.not.throw();
    });

    it('reopening with the same policy costs no call; a changed one is sent', async () => {
      await served.sandbox().open('app_reopened', { egress: null });
      await served.sandbox().open('app_reopened', { egress: null });
      await served.sandbox().open('app_reopened', { egress: { allowDomains: ['allowed.test'] } });
      expect(served.server().requests.map((request) => request.line)).to.deep.equal([
        'PUT /v1/apps/app_reopened/sandbox',
        'PUT /v1/apps/app_reopened/sandbox',
      ]);
    });

    it('the id stays the same across stop and restore', async () => {
      const session = await served.sandbox().open('app_stable', { egress: null });
      await session.writeFiles(nodeApp('stable'));
      await session.start();
      const snapshot = await session.snapshot();
      await session.restore(snapshot);
      await session.close();
      const again = await served.sandbox().open('app_stable', { egress: null });
      expect(again.id).to.equal(session.id);
      await again.start();
      expect((await callFn<{ label: string }>(again, 'echo')).label).to.equal('stable');
    });

    it('discard is DELETE /v1/sandboxes/{id}; the old id is gone and the next open creates a new sandbox', async () => {
      const session = await served.sandbox().open('app_discarded', { egress: null });
      await session.writeFiles(nodeApp('doomed'));
      await session.start();
      await session.discard();
      expect(served.server().requests.at(-1)).to.deep.include({
        line: `DELETE /v1/sandboxes/${session.id}`,
        authorization: `Bearer ${TOKEN}`,
      });
      const stale = await fetch(`${served.server().url}/v1/sandboxes/${session.id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(stale.status).to.equal(404);
      expect((await stale.json()).error.code).to.equal('not-found');
      const again = await served.sandbox().open('app_discarded', { egress: null });
      expect(again.id).to.not.equal(session.id);
      expect(served.server().requests.at(-1)!.line).to.equal('PUT /v1/apps/app_discarded/sandbox');
    });
  });
});
