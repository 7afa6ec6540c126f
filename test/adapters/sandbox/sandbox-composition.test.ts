import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPorter, type Porter } from '../../../composition/create-porter.js';
import { PorterConfigError } from '../../../composition/config/load-config.js';
import type { PorterOptions } from '../../../composition/config/config-schema.js';
import { get, getOptional } from '../../../composition/tokens.js';
import { SANDBOX_TOKENS } from '../../../composition/modules/sandbox-tokens.js';
import { SYSTEM_TOKENS } from '../../../composition/modules/system-tokens.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { LocalSandbox } from '../../../adapters/sandbox/local/local-sandbox.js';
import { namespaceSupport } from '../../../adapters/sandbox/local/network-namespace.js';
import { E2bSandbox } from '../../../adapters/sandbox/e2b/e2b-sandbox.js';
import { CloudSandbox } from '../../../adapters/sandbox/cloud/cloud-sandbox.js';
import type { Sandbox } from '../../../ports/sandbox.js';
import { ManualClock } from '../../support/manual-clock.js';
import { devHost } from '../../support/dev-host-fixture.js';
import { nodeApp, callFn, type EchoBody } from '../../support/sandbox-apps.js';
import { containerOf } from '../../../composition/porter-container.js';
import { closedAfter } from '../../support/closed-after.js';

const SECRET = 'a-secret-that-is-long-enough-for-cookies-0123456789';

describe('the sandbox module (composition)', () => {
  const opened = closedAfter<Porter>({ each: true });
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'porter-sandbox-composition-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function porter(options: PorterOptions, env: NodeJS.ProcessEnv = {}): Promise<Porter> {
    const made = await createPorter(
      { store: new MemoryStore({ clock: new ManualClock() }), secret: SECRET, logger: 'silent', ...options },
      env,
    );
    opened.push(made);
    return made;
  }

  /** What GET /status reports as `sandbox` (the dev-host test below reads it over HTTP). */
  async function status(made: Porter): Promise<unknown> {
    return get(containerOf(made), SYSTEM_TOKENS.DeploymentFacts).blocks.sandbox;
  }

  const sandboxOf = (made: Porter) => getOptional(containerOf(made), SANDBOX_TOKENS.Sandbox);

  it('development runs apps locally by default, under PORTER_SANDBOX_ROOT; /status says custom', async () => {
    const made = await porter({ development: true }, { PORTER_SANDBOX_ROOT: root });
    const sandbox = sandboxOf(made);
    expect(sandbox).to.be.instanceOf(LocalSandbox);
    expect((sandbox as LocalSandbox).root).to.equal(root);
    expect(await status(made)).to.equal('custom');
  });

  it('production has no sandbox unless one is configured: nothing bound, /status says false', async () => {
    const made = await porter({ development: false });
    expect(sandboxOf(made)).to.equal(undefined);
    expect(await status(made)).to.equal(false);
  });

  it('the environment names e2b (E2B_API_KEY) or the cloud service (PORTER_SANDBOX_URL + PORTER_SANDBOX_TOKEN)', async () => {
    const e2b = await porter({}, { E2B_API_KEY: 'e2b_key', PORTER_E2B_TEMPLATE: 'porter-node' });
    expect(sandboxOf(e2b)).to.be.instanceOf(E2bSandbox);
    expect(await status(e2b)).to.equal('e2b');
    const cloud = await porter({}, { PORTER_SANDBOX_URL: 'https://sandboxes.example.com', PORTER_SANDBOX_TOKEN: 't'.repeat(32) });
    expect(sandboxOf(cloud)).to.be.instanceOf(CloudSandbox);
    expect(await status(cloud)).to.equal('cloud');
  });

  it('PORTER_SANDBOX picks explicitly: off turns the development default off, local turns it on in production', async () => {
    expect(sandboxOf(await porter({ development: true }, { PORTER_SANDBOX: 'off' }))).to.equal(undefined);
    expect(sandboxOf(await porter({ development: false }, { PORTER_SANDBOX: 'local', PORTER_SANDBOX_ROOT: root }))).to.be.instanceOf(
      LocalSandbox,
    );
  });

  it('host options win over the environment, and a host may bring its own Sandbox', async () => {
    const own: Sandbox = { kind: 'custom', open: () => Promise.reject(new Error('unused')), closeAll: async () => undefined };
    const made = await porter({ sandbox: own }, { E2B_API_KEY: 'e2b_key' });
    expect(sandboxOf(made)).to.equal(own);
    expect(sandboxOf(await porter({ development: true, sandbox: false }))).to.equal(undefined);
    expect(sandboxOf(await porter({ sandbox: { kind: 'local', root } }))).to.be.instanceOf(LocalSandbox);
  });

  it('NODE_ENV=production never picks the local sandbox implicitly, not even with development: true; naming it does', async () => {
    const production = { NODE_ENV: 'production', PORTER_SANDBOX_ROOT: root };
    expect(sandboxOf(await porter({ development: true }, production))).to.equal(undefined);
    expect(sandboxOf(await porter({ development: true }, { NODE_ENV: 'development', PORTER_SANDBOX_ROOT: root }))).to.be.instanceOf(
      LocalSandbox,
    );
    expect(sandboxOf(await porter({ development: true, sandbox: { kind: 'local', root } }, production))).to.be.instanceOf(LocalSandbox);
    expect(sandboxOf(await porter({ development: true, sandbox: 'local' }, production))).to.be.instanceOf(LocalSandbox);
    expect(sandboxOf(await porter({ development: true }, { ...production, PORTER_SANDBOX: 'local' }))).to.be.instanceOf(LocalSandbox);
  });

  it('passes containment, the server caps and egressIsolation on to the local adapter', async () => {
    const contained = sandboxOf(await porter({ sandbox: { kind: 'local', root } })) as LocalSandbox;
    expect(contained.containment).to.equal('bubblewrap');
    const chosen = sandboxOf(
      await porter({ sandbox: { kind: 'local', root, containment: 'none', egressIsolation: 'cooperative' } }),
    ) as LocalSandbox;
    expect(chosen.containment).to.equal('none');
    expect(chosen.egressIsolation).to.equal('cooperative');
    const automatic = sandboxOf(await porter({ sandbox: { kind: 'local', root, containment: 'none' } })) as LocalSandbox;
    expect(automatic.egressIsolation).to.equal(namespaceSupport().available ? 'namespace' : 'cooperative');
    const capped = sandboxOf(
      await porter({ sandbox: { kind: 'local', root, maxServersPerPerson: 1, maxServers: 2, idleStopMs: 60_000 } }),
    ) as LocalSandbox;
    expect(capped.limits).to.deep.equal({ maxServersPerPerson: 1, maxServers: 2, idleMs: 60_000 });
  });

  it('refuses settings that would not work, naming the option or variable', async () => {
    const refused = async (options: PorterOptions, env: NodeJS.ProcessEnv = {}) => {
      const error = await createPorter(
        { store: new MemoryStore({ clock: new ManualClock() }), secret: SECRET, logger: 'silent', ...options },
        env,
      ).then(
        () => expect.fail('should be refused'),
        (failure: unknown) => failure,
      );
      expect(error).to.be.instanceOf(PorterConfigError);
      return (error as PorterConfigError).message;
    };
    expect(await refused({ sandbox: { kind: 'cloud', url: 'http://sandboxes.example.com', token: 't'.repeat(32) } }))
      .to.contain('sandbox.url')
      .and.to.contain('https');
    expect(await refused({}, { PORTER_SANDBOX_URL: 'https://sandboxes.example.com' }))
      .to.contain('sandbox (from PORTER_SANDBOX_URL / PORTER_SANDBOX_TOKEN)')
      .and.to.contain('token');
    expect(await refused({ sandbox: { kind: 'e2b' } })).to.contain('sandbox.apiKey');
    expect(await refused({ sandbox: { kind: 'local', egressIsolation: 'none' as never } })).to.contain('sandbox');
    expect(await refused({ sandbox: { kind: 'local', containment: 'docker' as never } })).to.contain('sandbox');
    expect(await refused({ sandbox: { kind: 'local', maxServersPerPerson: 0 } })).to.contain('sandbox.maxServersPerPerson');
    // Containment is about the namespace the cooperative mode would do without.
    expect(await refused({ sandbox: { kind: 'local', root, egressIsolation: 'cooperative' } })).to.contain("containment: 'none'");
    expect(await refused({}, { PORTER_SANDBOX: 'docker' })).to.contain('PORTER_SANDBOX');
    expect(await refused({ sandbox: 'remote' as never })).to.contain('sandbox');
  });

  it('closing Porter stops the app servers it started', async () => {
    const made = await porter({ development: true }, { PORTER_SANDBOX_ROOT: root });
    const session = await sandboxOf(made)!.open('app_closing', { egress: null });
    await session.writeFiles(nodeApp('closing'));
    await session.start();
    expect(await session.isListening()).to.equal(true);
    await opened.pop()!.close();
    expect(await session.isListening()).to.equal(false);
  });

  it('the development host (npm start) serves an app from the local sandbox', async () => {
    const host = await devHost({ env: { PORTER_SANDBOX_ROOT: root } });
    try {
      const statusResponse = await fetch(`${host.url}/api/porter/status`);
      expect(((await statusResponse.json()) as { blocks: { sandbox: unknown } }).blocks.sandbox).to.equal('custom');
      const session = await get(containerOf(host.porter), SANDBOX_TOKENS.Sandbox).open('app_devhost', { egress: null });
      await session.writeFiles(nodeApp('dev host'));
      await session.start();
      // Contained by bubblewrap: the app's folder is /app to it.
      expect((await callFn<EchoBody>(session, 'echo')).cwd).to.equal('/app');
    } finally {
      await host.close();
    }
  });
});
