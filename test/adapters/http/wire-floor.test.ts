import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { createKoaWire } from '../../../adapters/http/koa-wire.js';
import { mountsOf } from '../../../adapters/http/mount.js';
import type { WireMounts } from '../../../adapters/http/wire-mounts.js';
import type { WireRoutes } from '../../../adapters/http/wire-routes.js';
import { bodyOf, principalOf } from '../../../adapters/http/wire-state.js';
import type { Principal } from '../../../domain/principal.js';
import type { PrincipalResolver } from '../../../ports/principal-resolver.js';
import type { AdoptionRequest } from '../../../ports/use-cases/identity.js';
import { DomainError, NotFound } from '../../../domain/errors.js';
import { CookieJar, serve, type RunningServer } from '../../support/http-server.js';
import { probeRoute } from '../../support/probe-route.js';
import { RecordingLogger, SequentialIds } from '../../support/fakes.js';

const MOUNT = '/api/porter';

/** Routes standing in for the families, so the floor can be probed on its own. */
const probeRoutes: WireRoutes[] = [
  {
    access: 'principal',
    tag: 'Probes',
    routes: [
      ...['/approvals', '/approvals/:id/decide', '/grants', '/things', '/apps/import'].flatMap((path) => [
        probeRoute('get', path, (ctx) => void (ctx.body = { principal: principalOf(ctx) })),
        probeRoute('post', path, (ctx) => void (ctx.body = { principal: principalOf(ctx), body: bodyOf(ctx) ?? null })),
      ]),
      probeRoute('delete', '/things/:id', (ctx) => void (ctx.body = { deleted: ctx.params.id })),
      probeRoute('get', '/boom', () => {
        throw new Error('secret internals');
      }),
      probeRoute('get', '/missing', () => {
        throw new NotFound('Thread');
      }),
      probeRoute('get', '/conflict', () => {
        throw new DomainError('conflict', 'The pin is not drifted', { slot: 'header' });
      }),
    ],
  },
  {
    access: 'self',
    tag: 'Probes',
    routes: [
      probeRoute('post', '/webhooks/:source', (ctx) => void (ctx.body = { self: true })),
      probeRoute('post', '/tick', (ctx) => void (ctx.body = { self: true })),
      probeRoute('post', '/mcp', (ctx) => void (ctx.body = { door: true })),
    ],
  },
  {
    access: 'open',
    tag: 'Probes',
    routes: [probeRoute('post', '/doctor/probe', (ctx) => void (ctx.body = { open: true, principal: ctx.state.principal ?? null }))],
  },
];

for (const mount of ['listener', 'fetch'] as const) {
  describe(`Koa wire floor, through the ${mount} mount`, () => {
    let server: RunningServer;
    let resolver: PrincipalResolver;
    let resolverCalls: number;
    let adoptions: AdoptionRequest[];
    let adoptFailure: Error | null;
    let logger: RecordingLogger;
    let mounts: WireMounts;

    beforeEach(async () => {
      resolverCalls = 0;
      resolver = () => null;
      adoptions = [];
      adoptFailure = null;
      logger = new RecordingLogger();
      const wire = createKoaWire({
        mount: MOUNT,
        cookieKeys: ['a-test-secret-that-is-long-enough-0123456789'],
        routes: probeRoutes,
        resolve: (request) => {
          resolverCalls += 1;
          return resolver(request);
        },
        identity: {
          adoptAnonymousSession: {
            async execute(request) {
              if (adoptFailure) throw adoptFailure;
              adoptions.push(request);
              return 'adopted';
            },
          },
        },
        ids: new SequentialIds(),
        logger,
      });
      mounts = mountsOf(wire);
      server = await serve(mounts.listener);
    });

    afterEach(async () => {
      await server.close();
    });

    // Through the listener a real client crosses a loopback socket; through fetch, a plain Request.
    const send = (url: string, init: RequestInit = {}) => (mount === 'listener' ? fetch(url, init) : mounts.fetch(new Request(url, init)));
    const call = (path: string, init: RequestInit = {}) => send(`${server.url}${MOUNT}${path}`, init);
    const throwingResolver: PrincipalResolver = () => {
      throw new Error('the resolver must not run for this request');
    };

    describe('error envelope', () => {
      it('answers an unknown route with a not-found envelope and resolves nobody', async () => {
        resolver = throwingResolver;
        const response = await call('/nowhere');
        expect(response.status).to.equal(404);
        expect(await response.json()).to.deep.equal({ error: { code: 'not-found', message: 'No such route' } });
        expect(resolverCalls).to.equal(0);
      });

      it('maps a domain error to its status and code', async () => {
        const response = await call('/missing');
        expect(response.status).to.equal(404);
        expect(await response.json()).to.deep.equal({ error: { code: 'not-found', message: 'Thread was not found' } });
      });

      it("carries a domain error's details", async () => {
        const response = await call('/conflict');
        expect(response.status).to.equal(409);
        expect(await response.json()).to.deep.equal({
          error: { code: 'conflict', message: 'The pin is not drifted', details: { slot: 'header' } },
        });
      });

      it('answers an unexpected failure with a generic internal envelope and logs the cause', async () => {
        const response = await call('/boom');
        expect(response.status).to.equal(500);
        const body = await response.json();
        expect(body).to.deep.equal({ error: { code: 'internal', message: 'Something went wrong on our side' } });
        expect(JSON.stringify(body)).to.not.contain('secret internals');
        expect(logger.text()).to.contain('secret internals');
      });

      it('answers a body that is not what its Content-Encoding says with a validation envelope', async () => {
        const response = await call('/things', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: 'not gzip at all',
        });
        expect(response.status).to.equal(400);
        expect((await response.json()).error.code).to.equal('validation');
      });

      it('answers malformed JSON with a validation envelope', async () => {
        const response = await call('/things', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
        expect(response.status).to.equal(400);
        expect((await response.json()).error.code).to.equal('validation');
      });
    });

    describe('organizations', () => {
      for (const [method, path] of [
        ['GET', '/orgs'],
        ['POST', '/orgs'],
        ['GET', '/orgs/org_1'],
        ['DELETE', '/orgs/org_1/members/u1'],
      ] as const) {
        it(`refuses ${method} ${path} with cloud-required before the resolver runs`, async () => {
          resolver = throwingResolver;
          const response = await call(path, {
            method,
            headers: { 'content-type': 'application/json', cookie: 'x=1' },
            body: method === 'GET' ? undefined : '{}',
          });
          expect(response.status).to.equal(402);
          expect((await response.json()).error.code).to.equal('cloud-required');
          expect(resolverCalls).to.equal(0);
        });
      }

      for (const path of ['/approvals?org=acme', '/grants?org=', '/approvals/apr_1/decide?org=acme']) {
        it(`refuses an org query on ${path.split('?')[0]} before the resolver runs`, async () => {
          resolver = throwingResolver;
          const response = await call(path, {
            method: path.includes('decide') ? 'POST' : 'GET',
            headers: { 'content-type': 'application/json' },
            body: path.includes('decide') ? '{}' : undefined,
          });
          expect(response.status).to.equal(402);
          expect(resolverCalls).to.equal(0);
        });
      }

      it('refuses an org field in a JSON body on /grants and /approvals before the resolver runs', async () => {
        resolver = throwingResolver;
        for (const path of ['/grants', '/approvals/apr_1/decide']) {
          const response = await call(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ approve: true, org: 'acme' }),
          });
          expect(response.status).to.equal(402);
        }
        expect(resolverCalls).to.equal(0);
      });

      it('answers no route, and resolves nobody, for the org-scoped paths in another letter case', async () => {
        resolver = throwingResolver;
        for (const path of ['/Approvals?org=acme', '/GRANTS?org=acme', '/approvals/apr_1/Decide?org=acme']) {
          const response = await call(path, {
            method: path.includes('Decide') ? 'POST' : 'GET',
            headers: { 'content-type': 'application/json' },
            body: path.includes('Decide') ? '{}' : undefined,
          });
          expect(response.status, path).to.be.oneOf([402, 404]);
        }
        expect(resolverCalls).to.equal(0);
      });

      // A Request cannot carry a GET body; test/e2e/fetch-mount.test.ts sends one through a host server.
      if (mount === 'listener') {
        it('refuses an org field even in a GET body on the org-scoped families', async () => {
          resolver = throwingResolver;
          // fetch will not send a GET body; node:http will, as any HTTP client may.
          const status = await new Promise<number>((resolve, reject) => {
            const request = httpRequest(
              `${server.url}${MOUNT}/approvals`,
              { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': '14' } },
              (response) => {
                response.resume();
                resolve(response.statusCode ?? 0);
              },
            );
            request.on('error', reject);
            request.end('{"org":"acme"}');
          });
          expect(status).to.equal(402);
          expect(resolverCalls).to.equal(0);
        });
      }

      it('lets an org field through on other families', async () => {
        const response = await call('/things', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ org: 'acme' }),
        });
        expect(response.status).to.equal(200);
      });
    });

    describe('CSRF floor', () => {
      /** A POST that carries the session cookie, its body sent as `contentType`. */
      const cookiePost = (path: string, contentType: string, body: string) =>
        call(path, { method: 'POST', headers: { cookie: 'session=abc', 'content-type': contentType }, body });

      it('refuses a cookie-authenticated POST sent as text/plain with 415', async () => {
        const response = await cookiePost('/things', 'text/plain', '{}');
        expect(response.status).to.equal(415);
        expect((await response.json()).error.code).to.equal('unsupported-media-type');
      });

      it('refuses cookie-authenticated form posts and DELETEs without JSON', async () => {
        const form = await cookiePost('/things', 'application/x-www-form-urlencoded', 'a=1');
        expect(form.status).to.equal(415);
        const del = await call('/things/t1', { method: 'DELETE', headers: { cookie: 'session=abc' } });
        expect(del.status).to.equal(415);
      });

      it('lets a cookie-authenticated JSON request through, with parameters on the type', async () => {
        const response = await cookiePost('/things', 'Application/JSON; charset=utf-8', '{"a":1}');
        expect(response.status).to.equal(200);
        expect((await response.json()).body).to.deep.equal({ a: 1 });
      });

      it('leaves requests without cookies alone', async () => {
        const response = await call('/things', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
        expect(response.status).to.equal(200);
      });

      it('leaves reads alone', async () => {
        const response = await call('/things', { headers: { cookie: 'session=abc' } });
        expect(response.status).to.equal(200);
      });

      it('exempts exactly webhooks, tick and app import, and the door sits outside it', async () => {
        for (const path of ['/webhooks/demo', '/tick', '/apps/import', '/mcp']) {
          const response = await cookiePost(path, 'text/plain', 'raw');
          expect(response.status, path).to.equal(200);
        }
      });

      it('cannot be stepped around by changing the letter case of the mount or the route', async () => {
        resolver = () => ({ subject: 'user-1', kind: 'user' });
        const headers = { cookie: 'session=abc', 'content-type': 'text/plain' };
        for (const url of [`${server.url}/API/PORTER/things`, `${server.url}${MOUNT}/Things`, `${server.url}${MOUNT}/TICK`]) {
          const response = await send(url, { method: 'POST', headers, body: 'x' });
          expect(response.status, url).to.be.oneOf([404, 415]);
        }
      });

      it('guards open (doctor) routes too', async () => {
        const response = await cookiePost('/doctor/probe', 'text/plain', 'x');
        expect(response.status).to.equal(415);
      });
    });

    describe('principal resolution', () => {
      it('hands the host principal to the route', async () => {
        resolver = () => ({ subject: 'user-1', kind: 'user', name: 'Ada' });
        const response = await call('/things');
        expect((await response.json()).principal).to.deep.equal({ subject: 'user-1', kind: 'user', name: 'Ada' });
      });

      it('rejects a reserved-namespace subject with 403', async () => {
        resolver = () => ({ subject: 'porter:webhook:demo', kind: 'user' });
        const response = await call('/things');
        expect(response.status).to.equal(403);
        expect((await response.json()).error.code).to.equal('forbidden');
      });

      it('rejects a principal of kind org with 403, whatever its letter case', async () => {
        for (const kind of ['org', 'ORG', 'Org', ' oRg ']) {
          resolver = () => ({ subject: 'acme', kind });
          const response = await call('/things');
          expect(response.status, kind).to.equal(403);
          expect((await response.json()).error.code).to.equal('forbidden');
        }
      });

      it('refuses a subject, name or email Porter cannot keep with 400, never a 500', async () => {
        const unusable: Principal[] = [
          { subject: 'a'.repeat(600), kind: 'user' },
          { subject: 'ada\u0000', kind: 'user' },
          { subject: 'ada\nbob', kind: 'user' },
          { subject: 'ada', kind: 'user', name: 'x'.repeat(513) },
          { subject: 'ada', kind: 'user', email: 'ada\u0007@example.com' },
        ];
        for (const principal of unusable) {
          resolver = () => principal;
          const response = await call('/things');
          expect(response.status, JSON.stringify(principal).slice(0, 60)).to.equal(400);
          const body = await response.json();
          expect(body.error.code).to.equal('validation');
          expect(body.error.message).to.match(/signed-in (subject|name|email) cannot be used/);
        }
        resolver = () => ({ subject: 'a'.repeat(512), kind: 'user', name: 'Ada Lovelace' });
        expect((await call('/things')).status).to.equal(200);
      });

      it('reports a malformed principal as a host bug (500), not as the caller', async () => {
        resolver = () => ({ subject: '', kind: 'user' }) as Principal;
        expect((await call('/things')).status).to.equal(500);
        expect(logger.text()).to.contain('invalid principal');
      });

      it("keeps the fields it knows from the host's own user object and ignores the rest, warning once", async () => {
        resolver = () =>
          ({ subject: 'user-1', name: 'Ada', email: 'ada@example.com', role: 'admin', id: 42, anonymous: true }) as unknown as Principal;
        const first = await call('/things');
        expect(first.status).to.equal(200);
        expect((await first.json()).principal).to.deep.equal({ subject: 'user-1', kind: 'user', name: 'Ada', email: 'ada@example.com' });
        expect((await call('/things')).status).to.equal(200);
        const warnings = logger.entries.filter((entry) => entry.level === 'warn');
        expect(warnings, 'one warning for those fields, not one per request').to.have.length(1);
        expect(warnings[0]!.message).to.contain('principal(req)').and.contain('ignored');
        expect(warnings[0]!.fields).to.deep.include({ fields: ['anonymous', 'id', 'role'] });
        resolver = () => ({ subject: 'user-1', kind: 'user', role: 'admin', plan: 'pro' }) as unknown as Principal;
        expect((await call('/things')).status).to.equal(200);
        const more = logger.entries.filter((entry) => entry.level === 'warn');
        expect(more, 'a field not seen before is named once more').to.have.length(2);
        expect(more[1]!.fields).to.deep.include({ fields: ['plan'] });
      });

      it('takes a null kind, name or email (a nullable column) as absent', async () => {
        resolver = () => ({ subject: 'user-1', kind: null, name: null, email: null }) as unknown as Principal;
        const response = await call('/things');
        expect(response.status).to.equal(200);
        expect((await response.json()).principal).to.deep.equal({ subject: 'user-1', kind: 'user' });
      });

      it('reports a principal Porter cannot use as a host bug: 500 with a generic message, the log naming the problem', async () => {
        for (const [returned, problem] of [
          [{ name: 'Ada' }, 'subject must be a non-empty string, not undefined'],
          [{ subject: 42, name: 'Ada' }, 'subject must be a non-empty string, not a number'],
          [{ subject: '' }, 'subject must be a non-empty string, not an empty string'],
          ['ada', 'not an object but a string'],
          [['ada'], 'not an object but an array'],
          [{ subject: 'ada', name: 7 }, 'name must be a string or null, not a number'],
          [{ subject: 'ada', email: { address: 'a@b' } }, 'email must be a string or null, not an object'],
          [{ subject: 'ada', kind: 3 }, 'kind must be a string of 1 to 64 characters or null, not a number'],
        ] as const) {
          resolver = () => returned as unknown as Principal;
          const response = await call('/things');
          expect(response.status, problem).to.equal(500);
          expect((await response.json()).error, problem).to.deep.equal({ code: 'internal', message: 'Something went wrong on our side' });
          expect(logger.text(), problem).to.contain(`principal(req) returned an invalid principal: ${problem}`);
        }
      });

      it('never calls the resolver on self-authenticating and open routes', async () => {
        resolver = throwingResolver;
        expect((await call('/webhooks/demo', { method: 'POST' })).status).to.equal(200);
        expect((await call('/tick', { method: 'POST' })).status).to.equal(200);
        const open = await call('/doctor/probe', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        expect((await open.json()).principal).to.equal(null);
        expect(resolverCalls).to.equal(0);
      });
    });

    describe('anonymous sessions', () => {
      it('issues a signed, HttpOnly, SameSite=Lax cookie and keeps the same anonymous subject', async () => {
        const jar = new CookieJar();
        const first = await call('/things');
        jar.absorb(first);
        const setCookie = first.headers.getSetCookie().join('\n');
        expect(setCookie).to.match(/porter_anon=anon_/);
        expect(setCookie).to.match(/porter_anon\.sig=/);
        expect(setCookie.toLowerCase()).to.contain('httponly');
        expect(setCookie.toLowerCase()).to.contain('samesite=lax');
        const subject = (await first.json()).principal.subject as string;
        expect(subject).to.match(/^porter:anon:anon_/);
        const second = await call('/things', { headers: { cookie: jar.header() } });
        expect((await second.json()).principal.subject).to.equal(subject);
        expect(second.headers.getSetCookie()).to.have.length(0);
      });

      it('ignores a cookie whose signature does not match', async () => {
        const jar = new CookieJar();
        const first = await call('/things');
        jar.absorb(first);
        const subject = (await first.json()).principal.subject;
        jar.set('porter_anon', 'anon_0000000099');
        const forged = await call('/things', { headers: { cookie: jar.header() } });
        expect((await forged.json()).principal.subject).to.not.equal(subject);
      });

      it('adopts the session on the first signed-in request and retires the cookie', async () => {
        const jar = new CookieJar();
        const first = await call('/things');
        jar.absorb(first);
        const anonymous = (await first.json()).principal.subject;
        resolver = () => ({ subject: 'user-1', kind: 'user' });
        const signedIn = await call('/things', { headers: { cookie: jar.header() } });
        expect(signedIn.status).to.equal(200);
        expect(adoptions).to.deep.equal([{ from: anonymous, to: { subject: 'user-1', kind: 'user' } }]);
        jar.absorb(signedIn);
        expect(jar.has('porter_anon')).to.equal(false);
        await call('/things', { headers: { cookie: jar.header() } });
        expect(adoptions).to.have.length(1);
      });

      it('keeps the cookie when adoption fails, and adopts on the next request', async () => {
        const jar = new CookieJar();
        jar.absorb(await call('/things'));
        resolver = () => ({ subject: 'user-1', kind: 'user' });
        adoptFailure = new Error('store hiccup');
        const failed = await call('/things', { headers: { cookie: jar.header() } });
        expect(failed.status).to.equal(200);
        jar.absorb(failed);
        expect(jar.has('porter_anon')).to.equal(true);
        expect(logger.text()).to.contain('retried');
        adoptFailure = null;
        const retried = await call('/things', { headers: { cookie: jar.header() } });
        jar.absorb(retried);
        expect(adoptions).to.have.length(1);
        expect(jar.has('porter_anon')).to.equal(false);
      });
    });
  });
}
