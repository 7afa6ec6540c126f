import { expect } from 'chai';
import { E2bSandbox, APP_METADATA_KEY } from '../../../adapters/sandbox/e2b/e2b-sandbox.js';
import { startE2bServer } from '../../support/sandbox-e2b-server.js';
import { servedBehavesAsSandbox, servedSandboxPerTest, type SandboxSettings } from './sandbox-behaviour.js';
import { callFn, nodeApp, type EchoBody } from '../../support/sandbox-apps.js';

const API_KEY = 'e2b_test_0123456789abcdef';

/** An E2bSandbox and a fresh local server speaking e2b's API and envd. */
async function e2bServed(settings: SandboxSettings) {
  const server = await startE2bServer({ apiKey: API_KEY, resolve: settings.resolve });
  const { apiUrl, sandboxUrl } = server;
  return { server, sandbox: new E2bSandbox({ apiKey: API_KEY, apiUrl, sandboxUrl, startTimeoutMs: settings.startTimeoutMs }) };
}

describe('E2bSandbox (the e2b SDK against a local server speaking its API and envd)', () => {
  describe('through the Sandbox port', () => {
    servedBehavesAsSandbox(e2bServed, { sideBySide: true });
  });

  describe('with e2b', () => {
    const served = servedSandboxPerTest(e2bServed);

    it('reports status kind e2b', () => {
      expect(served.sandbox().kind).to.equal('e2b');
    });

    it('creates one non-public sandbox per app, tagged with the app id, from the base template', async () => {
      await served.sandbox().open('app_tagged', { egress: null });
      const [created] = [...served.server().sandboxes.values()];
      expect(created!.metadata).to.deep.equal({ [APP_METADATA_KEY]: 'app_tagged' });
      expect(created!.templateID).to.equal('base');
      expect(created!.trafficAccessToken, 'sandbox URLs need the traffic token').to.be.a('string');
      expect(created!.network).to.deep.equal({ allowPublicTraffic: false });
    });

    it('writes an egress policy as e2b firewall rules: deny all, allow the domains and their subdomains', async () => {
      await served.sandbox().open('app_fenced', { egress: { allowDomains: ['api.example.com'] } });
      const [created] = [...served.server().sandboxes.values()];
      expect(created!.network).to.deep.equal({
        allowPublicTraffic: false,
        allowOut: ['api.example.com', '*.api.example.com'],
        denyOut: ['0.0.0.0/0'],
      });
    });

    it('a second Porter instance finds the same sandbox by its metadata instead of creating another', async () => {
      const first = await served.sandbox().open('app_shared', { egress: null });
      await first.writeFiles(nodeApp('shared'));
      await first.start();
      const elsewhere = new E2bSandbox({ apiKey: API_KEY, apiUrl: served.server().apiUrl, sandboxUrl: served.server().sandboxUrl });
      const second = await elsewhere.open('app_shared', { egress: null });
      expect(served.server().sandboxes.size).to.equal(1);
      expect((await callFn<EchoBody>(second, 'echo')).label).to.equal('shared');
    });

    it('close pauses the sandbox (files kept, server stopped); reopening resumes it', async () => {
      const session = await served.sandbox().open('app_paused', { egress: null });
      await session.writeFiles(nodeApp('paused'));
      await session.start();
      await session.close();
      const [paused] = [...served.server().sandboxes.values()];
      expect(paused!.state).to.equal('paused');
      const again = await served.sandbox().open('app_paused', { egress: null });
      expect(paused!.state).to.equal('running');
      expect(await again.isListening()).to.equal(false);
      await again.start();
      expect((await callFn<EchoBody>(again, 'echo')).label).to.equal('paused');
    });

    it('restore makes a new sandbox from the e2b snapshot and kills the old one', async () => {
      const session = await served.sandbox().open('app_restored', { egress: null });
      await session.writeFiles(nodeApp('v1'));
      await session.start();
      const before = [...served.server().sandboxes.keys()];
      const snapshot = await session.snapshot();
      expect(snapshot).to.match(/:default$/);
      await session.writeFiles(nodeApp('v2'));
      await session.start();
      await session.restore(snapshot);
      const after = [...served.server().sandboxes.keys()];
      expect(after).to.have.length(1);
      expect(after[0]).to.not.equal(before[0]);
      expect(served.server().sandboxes.get(after[0]!)!.metadata[APP_METADATA_KEY]).to.equal('app_restored');
      expect((await callFn<EchoBody>(session, 'echo')).label).to.equal('v1');
    });

    it('discard kills the sandbox and deletes every snapshot it took, those from before a restore included, even from another Porter instance', async () => {
      const session = await served.sandbox().open('app_discarded', { egress: null });
      await session.writeFiles(nodeApp('v1'));
      await session.start();
      const beforeRestore = await session.snapshot();
      await session.restore(beforeRestore);
      const afterRestore = await session.snapshot();
      const neighbour = await served.sandbox().open('app_neighbour', { egress: null });
      const kept = await neighbour.snapshot();
      expect([...served.server().snapshots.keys()]).to.have.members([beforeRestore, afterRestore, kept]);
      // Another instance knows only what e2b tells it: the live sandbox and its metadata.
      const elsewhere = new E2bSandbox({ apiKey: API_KEY, apiUrl: served.server().apiUrl, sandboxUrl: served.server().sandboxUrl });
      await (await elsewhere.open('app_discarded', { egress: null })).discard();
      expect([...served.server().sandboxes.values()].map((left) => left.metadata[APP_METADATA_KEY])).to.deep.equal(['app_neighbour']);
      expect([...served.server().snapshots.keys()]).to.deep.equal([kept]);
      expect(served.server().calls.filter((call) => call.startsWith('DELETE /templates/'))).to.have.length(2);
    });

    it('reopening with the same policy costs no e2b call; a changed policy updates the firewall in place', async () => {
      await served.sandbox().open('app_reopened', { egress: null });
      const before = served.server().calls.length;
      await served.sandbox().open('app_reopened', { egress: null });
      expect(served.server().calls.length).to.equal(before);
      await served.sandbox().open('app_reopened', { egress: { allowDomains: ['allowed.test'] } });
      expect(served.server().calls.slice(before)).to.deep.equal([`PUT /sandboxes/${[...served.server().sandboxes.keys()][0]}/network`]);
      expect([...served.server().sandboxes.values()][0]!.network).to.deep.include({
        allowOut: ['allowed.test', '*.allowed.test'],
        denyOut: ['0.0.0.0/0'],
      });
    });

    it('fails cleanly with a wrong API key', async () => {
      const wrong = new E2bSandbox({ apiKey: 'e2b_wrong', apiUrl: served.server().apiUrl, sandboxUrl: served.server().sandboxUrl });
      await wrong.open('app_denied', { egress: null }).then(
        () => expect.fail('a wrong key should be refused'),
        (error: Error) => expect(error.message).to.contain('e2b'),
      );
    });
  });
});
