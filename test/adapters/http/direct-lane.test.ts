import { expect } from 'chai';
import { z } from 'zod';
import { createKoaWire } from '../../../adapters/http/koa-wire.js';
import { mountsOf } from '../../../adapters/http/mount.js';
import { route, type WireRoute } from '../../../adapters/http/wire-route.js';
import type { WireRoutes } from '../../../adapters/http/wire-routes.js';
import type { WireRouteContext } from '../../../adapters/http/wire-state.js';
import type { Telemetry } from '../../../ports/telemetry.js';
import { serve, type RunningServer } from '../../support/http-server.js';
import { RecordingLogger, SequentialIds } from '../../support/fakes.js';

const MOUNT = '/api/porter';

/** A direct route: it writes its answer itself. */
function directRoute(method: 'get' | 'post', path: string, answer: (ctx: WireRouteContext) => Promise<void> | void): WireRoute {
  return route({ id: `${method}${path}`, method, path, summary: 'direct', responses: {}, direct: true, handle: answer });
}

function writeJson(ctx: WireRouteContext, status: number, body: unknown): void {
  ctx.respond = false;
  ctx.res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

describe('the direct lane (WireRoute.direct)', () => {
  let server: RunningServer;
  let lanes: string[];
  let traced: Array<string | undefined>;
  let logger: RecordingLogger;

  const telemetry = {
    continueFrom: (headers: Record<string, unknown>, work: () => unknown) => {
      traced.push(headers.traceparent as string | undefined);
      return work();
    },
  } as unknown as Telemetry;

  const routes = (): WireRoutes[] => [
    {
      access: 'self',
      tag: 'Probes',
      routes: [
        // The router's own registration of the same path: what a trailing slash or another method reaches.
        directRoute('post', '/door', (ctx) => {
          // The routers leave themselves on the context; the direct lane has none.
          lanes.push((ctx as { router?: unknown }).router ? 'router' : 'direct');
          writeJson(ctx, 200, { path: ctx.path, search: ctx.search });
        }),
        directRoute('get', '/quiet', () => undefined),
        // A framework-free route: a Web Request in, a Response out, on either lane.
        route({
          id: 'echo',
          method: 'post',
          path: '/echo',
          summary: 'echo',
          responses: {},
          direct: true,
          web: async (request, exchange) => {
            const body = new TextDecoder().decode(await exchange.body(16));
            return Response.json(
              { url: request.url, origin: exchange.origin, loopback: exchange.loopback, body, said: request.headers.get('x-said') },
              { status: 201, headers: { 'x-answered': 'yes' } },
            );
          },
        }),
        directRoute('get', '/boom', () => {
          throw new Error('secret internals');
        }),
        route({
          id: 'routed',
          method: 'get',
          path: '/door',
          summary: 'routed',
          responses: {},
          handle: (ctx) => void (ctx.body = { routed: true }),
        }),
      ],
    },
  ];

  beforeEach(async () => {
    lanes = [];
    traced = [];
    logger = new RecordingLogger();
    const wire = createKoaWire({
      mount: MOUNT,
      cookieKeys: ['a-test-secret-that-is-long-enough-0123456789'],
      routes: routes(),
      resolve: () => {
        throw new Error('a self route resolves nobody');
      },
      identity: { adoptAnonymousSession: { execute: async () => 'adopted' } },
      ids: new SequentialIds(),
      logger,
      telemetry,
    });
    server = await serve(mountsOf(wire).listener);
  });

  afterEach(async () => {
    await server.close();
  });

  it('answers its exact path and method ahead of the routers, with the query, in the trace the request named', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const response = await fetch(`${server.url}${MOUNT}/door?x=1`, { method: 'POST', headers: { traceparent } });
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ path: `${MOUNT}/door`, search: '?x=1' });
    expect(lanes).to.deep.equal(['direct']);
    expect(traced).to.deep.equal([traceparent]);
  });

  it('leaves another method and a trailing slash to the routers', async () => {
    expect(await (await fetch(`${server.url}${MOUNT}/door`)).json()).to.deep.equal({ routed: true });
    // The router registered the direct route too: a trailing slash still reaches it there.
    const slashed = await fetch(`${server.url}${MOUNT}/door/`, { method: 'POST' });
    expect(slashed.status).to.equal(200);
    expect(await slashed.json()).to.deep.include({ path: `${MOUNT}/door/` });
    expect(lanes).to.deep.equal(['router']);
  });

  it('answers a framework-free route with its Response, the same on the direct lane and through the Koa glue', async () => {
    for (const path of ['/echo?x=1', '/echo/?x=1']) {
      const response = await fetch(`${server.url}${MOUNT}${path}`, { method: 'POST', headers: { 'x-said': 'hello' }, body: 'ping' });
      expect(response.status, path).to.equal(201);
      expect(response.headers.get('x-answered')).to.equal('yes');
      expect(await response.json()).to.deep.equal({
        url: `${server.url}${MOUNT}${path}`,
        origin: server.url,
        loopback: true,
        body: 'ping',
        said: 'hello',
      });
    }
    // Past the bound the exchange refuses the body: the route did not catch it, so the envelope answers.
    const tooLarge = await fetch(`${server.url}${MOUNT}/echo`, { method: 'POST', body: 'x'.repeat(17) });
    expect(tooLarge.status).to.equal(413);
  });

  it('answers 500 in the envelope, never the error, when a direct route throws or writes nothing', async () => {
    for (const path of ['/boom', '/quiet']) {
      const response = await fetch(`${server.url}${MOUNT}${path}`);
      expect(response.status, path).to.equal(500);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).to.equal('internal');
      expect(JSON.stringify(body)).to.not.contain('secret internals');
    }
  });

  it('refuses to make a route direct that the routers would have parsed for it', () => {
    const withParams = route({
      id: 'p',
      method: 'post',
      path: '/things/:id',
      params: { id: z.string() },
      summary: 'p',
      responses: {},
      direct: true,
      handle: () => undefined,
    });
    const behindFloor = { ...directRoute('post', '/x', () => undefined) };
    const wire = (group: WireRoutes) => () =>
      createKoaWire({
        mount: MOUNT,
        cookieKeys: ['a-test-secret-that-is-long-enough-0123456789'],
        routes: [group],
        resolve: () => null,
        identity: { adoptAnonymousSession: { execute: async () => 'adopted' } },
        ids: new SequentialIds(),
        logger,
      });
    expect(wire({ access: 'self', tag: 'T', routes: [withParams] })).to.throw(/can be direct/);
    expect(wire({ access: 'principal', tag: 'T', routes: [behindFloor] })).to.throw(/can be direct/);
  });
});
