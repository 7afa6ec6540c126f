import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { createKoaWire } from '../../../adapters/http/koa-wire.js';
import { mountsOf } from '../../../adapters/http/mount.js';
import { type RouteMethod } from '../../../adapters/http/wire-route.js';
import type { WireRoutes } from '../../../adapters/http/wire-routes.js';
import { principalOf } from '../../../adapters/http/wire-state.js';
import { serve, type RunningServer } from '../../support/http-server.js';
import { probeRoute } from '../../support/probe-route.js';
import { RecordingLogger, SequentialIds } from '../../support/fakes.js';

const MOUNT = '/api/porter';

/** The approvals and grants routes as the guard declares them (paths and methods), answering 200. */
const guardLike: WireRoutes = {
  access: 'principal',
  tag: 'Probes',
  routes: (
    [
      ['get', '/approvals'],
      ['post', '/approvals/decide'],
      ['get', '/approvals/:id'],
      ['post', '/approvals/:id/decide'],
      ['get', '/grants'],
      ['delete', '/grants/:id'],
    ] as Array<[RouteMethod, string]>
  ).map(([method, path]) => probeRoute(method, path, (ctx) => void (ctx.body = { principal: principalOf(ctx) }))),
};

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const PATHS = [
  '/approvals',
  '/approvals/',
  '/approvals/decide',
  '/approvals/apr_01J0000000000000000000000',
  '/approvals/call_abc123',
  '/approvals/x/y',
  '/approvals/apr_1/decide',
  '/approvals/apr_1/decide/more',
  '/grants',
  '/grants/',
  '/grants/grt_1',
  '/grants/x/y/z',
];

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** node:http sends a body with any method (fetch will not with GET or HEAD). */
function send(base: string, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${base}${MOUNT}${path}`,
      {
        method,
        headers: {
          ...headers,
          ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('The org refusal covers every method and path under /approvals and /grants', () => {
  let server: RunningServer;
  let resolverCalls: number;

  beforeEach(async () => {
    resolverCalls = 0;
    const wire = createKoaWire({
      mount: MOUNT,
      cookieKeys: ['a-test-secret-that-is-long-enough-0123456789'],
      routes: [guardLike],
      resolve: () => {
        resolverCalls += 1;
        return { subject: 'ada', kind: 'user' };
      },
      identity: { adoptAnonymousSession: { execute: async () => 'adopted' } },
      ids: new SequentialIds(),
      logger: new RecordingLogger(),
    });
    server = await serve(mountsOf(wire).listener);
  });

  afterEach(async () => {
    await server.close();
  });

  const refused = (answer: Answer, what: string) => {
    expect(answer.status, what).to.equal(402);
    if (answer.body) expect(JSON.parse(answer.body).error.code, what).to.equal('cloud-required');
  };

  it('answers 402 cloud-required to an org query, matched route or not, before the resolver runs', async () => {
    for (const method of METHODS) {
      for (const path of PATHS) {
        for (const query of ['?org=acme', '?org=', '?limit=5&org=acme']) {
          refused(await send(server.url, method, `${path}${query}`, undefined, { cookie: 'session=abc' }), `${method} ${path}${query}`);
        }
      }
    }
    expect(resolverCalls).to.equal(0);
  });

  it('answers 402 cloud-required to an org field in a JSON body, whatever the method, before the resolver runs', async () => {
    for (const method of METHODS) {
      for (const path of PATHS) {
        refused(await send(server.url, method, path, JSON.stringify({ org: 'acme', approve: true })), `${method} ${path}`);
      }
    }
    expect(resolverCalls).to.equal(0);
  });

  it("through the fetch mount too (the issue's two examples)", async () => {
    const wire = createKoaWire({
      mount: MOUNT,
      cookieKeys: ['a-test-secret-that-is-long-enough-0123456789'],
      routes: [guardLike],
      resolve: () => {
        throw new Error('the resolver must not run');
      },
      identity: { adoptAnonymousSession: { execute: async () => 'adopted' } },
      ids: new SequentialIds(),
      logger: new RecordingLogger(),
    });
    const { fetch } = mountsOf(wire);
    for (const [method, path] of [
      ['PUT', '/grants?org=1'],
      ['GET', '/approvals/x/y?org=1'],
    ] as const) {
      const response = await fetch(new Request(`http://host.test${MOUNT}${path}`, { method }));
      expect(response.status, `${method} ${path}`).to.equal(402);
      expect((await response.json()).error.code).to.equal('cloud-required');
    }
  });

  it('leaves the families alone without an org: routes answer, unknown paths are 404 and methods a path does not take 405', async () => {
    expect((await send(server.url, 'GET', '/approvals?limit=5')).status).to.equal(200);
    expect((await send(server.url, 'POST', '/approvals/apr_1/decide', JSON.stringify({ approve: true }))).status).to.equal(200);
    expect((await send(server.url, 'PUT', '/grants', JSON.stringify({ organization: 'acme' }))).status).to.equal(405);
    expect((await send(server.url, 'GET', '/approvals/x/y')).status).to.equal(404);
    // A cookie-carrying write that is not JSON still meets the CSRF floor on a route.
    expect((await send(server.url, 'DELETE', '/grants/grt_1', undefined, { cookie: 'session=abc' })).status).to.equal(415);
  });

  it('refuses org only as a whole name, on these families only', async () => {
    expect((await send(server.url, 'GET', '/approvals?organization=acme')).status).to.equal(200);
    expect((await send(server.url, 'GET', '/approvalsx?org=acme')).status).to.equal(404);
    expect((await send(server.url, 'GET', '/grant?org=acme')).status).to.equal(404);
  });
});
