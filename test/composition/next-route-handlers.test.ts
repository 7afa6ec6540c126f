import { expect } from 'chai';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { createRouteHandlers, withPorter } from '../../composition/next.js';

/** A development Porter on the memory store: what a route handler's `create` would make. */
const memoryPorter = () => createPorter({ databaseUrl: 'memory:', logger: 'silent', development: true, sandbox: false }, {});

describe('porter-runtime/next', () => {
  const made: Porter[] = [];
  let name = 0;
  // Each test names its own Porter: the handlers keep them on globalThis, as a hot reload would find them.
  const fresh = () => `test-${++name}`;
  afterEach(async () => {
    await Promise.all(made.splice(0).map((porter) => porter.close()));
  });

  it('creates nothing until the first request, then one Porter for every method and every request', async () => {
    let created = 0;
    const handlers = createRouteHandlers(
      async () => {
        created++;
        const porter = await memoryPorter();
        made.push(porter);
        return porter;
      },
      { name: fresh() },
    );
    expect(created, 'importing the route (as next build does) creates nothing').to.equal(0);
    const [status, again] = await Promise.all([
      handlers.GET(new Request('http://host/api/porter/status')),
      handlers.GET(new Request('http://host/api/porter/status')),
    ]);
    expect(status.status).to.equal(200);
    expect(((await status.json()) as { version: string }).version).to.be.a('string');
    await again.body?.cancel();
    const created1 = await handlers.POST(
      new Request('http://host/api/porter/threads', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(created1.status).to.equal(201);
    await created1.body?.cancel();
    expect(created).to.equal(1);
  });

  it('tries a failed creation again on the next request instead of keeping the failure', async () => {
    let attempts = 0;
    const handlers = createRouteHandlers(
      async () => {
        if (++attempts === 1) throw new Error('the database is not up yet');
        const porter = await memoryPorter();
        made.push(porter);
        return porter;
      },
      { name: fresh() },
    );
    let failure: unknown;
    await handlers.GET(new Request('http://host/api/porter/status')).catch((error: unknown) => (failure = error));
    expect((failure as Error).message).to.equal('the database is not up yet');
    expect((await handlers.GET(new Request('http://host/api/porter/status'))).status).to.equal(200);
    expect(attempts).to.equal(2);
  });

  it('shares one Porter between route files of the same name, as a reloaded module does', async () => {
    let created = 0;
    const create = async () => {
      created++;
      const porter = await memoryPorter();
      made.push(porter);
      return porter;
    };
    const shared = fresh();
    await (await createRouteHandlers(create, { name: shared }).GET(new Request('http://host/api/porter/status'))).json();
    // What a development hot reload does: the route module runs again and makes new handlers.
    await (await createRouteHandlers(create, { name: shared }).GET(new Request('http://host/api/porter/status'))).json();
    expect(created).to.equal(1);
  });

  it('withPorter keeps the host config and adds Porter to serverExternalPackages once', () => {
    const config = withPorter({ cacheComponents: true, serverExternalPackages: ['sharp', 'porter-runtime'] });
    expect(config).to.deep.equal({ cacheComponents: true, serverExternalPackages: ['sharp', 'porter-runtime'] });
    expect(withPorter().serverExternalPackages).to.deep.equal(['porter-runtime']);
  });
});
