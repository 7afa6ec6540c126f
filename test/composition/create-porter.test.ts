import { expect } from 'chai';
import Koa from 'koa';
import { createServer, type Server } from 'node:http';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../support/manual-clock.js';
import { serve, type RunningServer } from '../support/http-server.js';
import type { WireRequest } from '../../ports/wire-request.js';

const SECRET = 'a-secret-that-is-long-enough-for-cookies-0123456789';
const base = (extra: Record<string, unknown> = {}) => ({
  store: new MemoryStore({ clock: new ManualClock() }),
  secret: SECRET,
  logger: 'silent' as const,
  ...extra,
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('createPorter', () => {
  const opened: Array<{ porter: Porter; close(): Promise<void> }> = [];
  afterEach(async () => {
    while (opened.length) {
      const next = opened.pop()!;
      await next.close();
      await next.porter.close();
    }
  });

  it('mounts on a host Koa app: answers its own paths, passes the rest on, and hands the host ctx to the resolver', async () => {
    let seenHostState: unknown;
    const porter = await createPorter(
      base({
        principal: (request: WireRequest) => {
          seenHostState = (request.host as { state?: { user?: string } } | undefined)?.state?.user;
          return { subject: 'ada', kind: 'user' };
        },
      }),
      {},
    );
    const app = new Koa();
    app.use(async (ctx, next) => {
      ctx.state.user = 'ada-from-host-session';
      await next();
    });
    app.use(porter.koa);
    app.use((ctx) => {
      ctx.body = { host: true };
    });
    const server = createServer(app.callback());
    const url = await listen(server);
    opened.push({ porter, close: () => new Promise((resolve) => server.close(() => resolve())) });

    const status = await fetch(`${url}/api/porter/status`);
    expect(status.status).to.equal(200);
    expect((await status.json()).blocks).to.be.an('object');
    expect(seenHostState).to.equal('ada-from-host-session');
    expect(await (await fetch(`${url}/elsewhere`)).json()).to.deep.equal({ host: true });
    const unknown = await fetch(`${url}/api/porter/nope`);
    expect(unknown.status).to.equal(404);
    expect((await unknown.json()).error.code).to.equal('not-found');
  });

  it('serves a plain Node http server through its listener, with a custom mount', async () => {
    const porter = await createPorter(base({ mount: '/agent' }), {});
    const server: RunningServer = await serve(porter.listener);
    opened.push({ porter, close: () => server.close() });
    expect((await fetch(`${server.url}/agent/status`)).status).to.equal(200);
    expect((await fetch(`${server.url}/api/porter/status`)).status).to.equal(404);
  });

  it("hands connect-style apps everything that is not Porter's", async () => {
    const porter = await createPorter(base(), {});
    const server = await serve((req, res) =>
      porter.handle(req, res, () => {
        res.end('host');
      }),
    );
    opened.push({ porter, close: () => server.close() });
    expect(await (await fetch(`${server.url}/home`)).text()).to.equal('host');
    expect((await fetch(`${server.url}/api/porter/status`)).status).to.equal(200);
  });

  it("reports exactly the spec's status blocks plus version", async () => {
    const porter = await createPorter(base({ development: true, apps: false }), {});
    const server = await serve(porter.listener);
    opened.push({ porter, close: () => server.close() });
    const body = await (await fetch(`${server.url}/api/porter/status`)).json();
    expect(Object.keys(body).sort()).to.deep.equal(['blocks', 'version']);
    expect(Object.keys(body.blocks).sort()).to.deep.equal(
      ['actions', 'agent', 'apps', 'automations', 'connections', 'guard', 'mcp', 'model', 'sandbox', 'store'].sort(),
    );
    expect(body.blocks).to.deep.include({ store: 'memory', apps: false, model: 'ladder', mcp: false });
    expect(body.blocks.sandbox === false || ['e2b', 'cloud', 'custom'].includes(body.blocks.sandbox)).to.equal(true);
    expect(body.blocks.connections === false || ['byo', 'cloud'].includes(body.blocks.connections)).to.equal(true);
  });

  it('reports a host model as custom', async () => {
    const { RecordingLanguageModel } = await import('../support/recording-model.js');
    const porter = await createPorter(base({ model: new RecordingLanguageModel(() => ({ text: 'hi' })) }), {});
    const server = await serve(porter.listener);
    opened.push({ porter, close: () => server.close() });
    const body = await (await fetch(`${server.url}/api/porter/status`)).json();
    expect(body.blocks).to.deep.include({ model: 'custom', agent: true });
  });

  it('answers 501 for a turn when production has no model', async () => {
    const porter = await createPorter(base(), {});
    const server = await serve(porter.listener);
    opened.push({ porter, close: () => server.close() });
    const created = await (
      await fetch(`${server.url}/api/porter/threads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    ).json();
    const turn = await fetch(`${server.url}/api/porter/threads/${created.id}/turn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: { role: 'user', parts: [{ type: 'text', text: 'hi' }] } }),
    });
    expect(turn.status).to.equal(501);
    expect((await turn.json()).error.code).to.equal('not-implemented');
  });

  describe('production and development compositions', () => {
    for (const [composition, development] of [
      ['production', false],
      ['development', true],
    ] as const) {
      it(`${composition}: doctor/base-url answers; doctor/present and doctor/act-as ${development ? 'answer' : 'are 404'}`, async () => {
        const porter = await createPorter(base({ development }), {});
        const server = await serve(porter.listener);
        opened.push({ porter, close: () => server.close() });
        expect(porter.composition).to.equal(composition);
        expect(await (await fetch(`${server.url}/api/porter/doctor/base-url`)).json()).to.deep.equal({ set: false });
        for (const path of ['/doctor/present', '/doctor/act-as']) {
          const response = await fetch(`${server.url}/api/porter${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          });
          expect(response.status, path).to.equal(development ? 200 : 404);
        }
      });
    }

    it('reveals whether PORTER_BASE_URL is set and nothing more', async () => {
      const porter = await createPorter(base(), { PORTER_BASE_URL: 'https://secret-host.example.com' });
      const server = await serve(porter.listener);
      opened.push({ porter, close: () => server.close() });
      const text = await (await fetch(`${server.url}/api/porter/doctor/base-url`)).text();
      expect(JSON.parse(text)).to.deep.equal({ set: true });
      expect(text).to.not.contain('secret-host');
    });
  });

  it('refuses a model provider the environment cannot back, naming the variable', async () => {
    let error: unknown;
    try {
      await createPorter(base({ development: true }), { PORTER_MODEL_PROVIDER: 'anthropic' });
    } catch (caught) {
      error = caught;
    }
    expect((error as Error).name).to.equal('PorterConfigError');
    expect((error as Error).message).to.contain('PORTER_MODEL_PROVIDER');
  });

  it('in production, refuses to boot without a secret, also when the host asks for the development composition', async () => {
    for (const options of [{}, { development: true }]) {
      let error: unknown;
      try {
        const porter = await createPorter(
          { ...options, store: new MemoryStore({ clock: new ManualClock() }), logger: 'silent' },
          { NODE_ENV: 'production' },
        );
        await porter.close();
      } catch (caught) {
        error = caught;
      }
      expect((error as Error)?.name, JSON.stringify(options)).to.equal('PorterConfigError');
      expect((error as Error).message)
        .to.match(/secret: is required (in production|when NODE_ENV=production)/)
        .and.contain('PORTER_SECRET');
    }
  });

  it('refuses invalid configuration at boot, naming the option', async () => {
    let message = '';
    try {
      await createPorter({ mcp: true, development: true, logger: 'silent' }, {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).to.contain('oauth');
  });
});
