import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import { Router } from '@koa/router';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Telemetry } from '../../ports/telemetry.js';
import type { PrincipalResolver } from '../../ports/principal-resolver.js';
import type { IdentityUseCases } from '../../ports/use-cases/identity.js';
import { errorEnvelope, toEnvelope } from './error-envelope.js';
import { closeAfterUnreadBody } from '../shared/unread-body.js';
import { csrfFloor } from './floor/csrf-floor.js';
import { jsonBody } from './floor/json-body.js';
import { orgRefusal } from './floor/org-refusal.js';
import { principalFloor } from './floor/principal-floor.js';
import { openApiDocument } from './openapi/openapi-document.js';
import { openApiRoutes } from './routes/openapi-routes.js';
import { pathParamsOf, registerRoutes, type WireRoute } from './wire-route.js';
import { relativeToMount } from './wire-paths.js';
import { wrongMethod } from './wrong-method.js';
import type { WireRoutes } from './wire-routes.js';
import type { WireRouteContext, WireState } from './wire-state.js';
import { nodeOrigin, serveWeb } from './web-glue.js';
import { defined } from '../../domain/defined.js';

/** The proxies in front of the wire, as the host describes them (`trustProxy`). */
export interface TrustedProxies {
  /** How many proxies the request passed, each appending the address it saw to `addressHeader`. */
  readonly hops: number;
  /** The header the nearest proxy writes the client address into, e.g. `x-forwarded-for`, `x-real-ip`. */
  readonly addressHeader: string;
}

export interface KoaWireOptions {
  /** Where the wire is mounted, e.g. `/api/porter`. */
  readonly mount: string;
  /** Secrets that sign the anonymous cookie; the first signs, all verify (rotation). */
  readonly cookieKeys: ReadonlyArray<string>;
  /**
   * Trust the proxies in front: `X-Forwarded-Proto`, `X-Forwarded-Host`, and the client address
   * from `addressHeader` as the outermost of `hops` proxies saw it (`true`: one proxy,
   * `X-Forwarded-For`). Off: the socket's address, whatever the headers say.
   */
  readonly trustProxy?: boolean | TrustedProxies;
  readonly routes: ReadonlyArray<WireRoutes>;
  /** Serve the OpenAPI document of these routes at `GET {mount}/openapi.json`, under this version. */
  readonly openApi?: { readonly version: string };
  readonly resolve: PrincipalResolver;
  readonly identity: IdentityUseCases;
  readonly ids: Ids;
  readonly logger: Logger;
  /** Continues the trace a request's `traceparent` names; absent, no header is read. */
  readonly telemetry?: Telemetry;
}

export interface KoaWire {
  readonly app: Koa<WireState>;
  /** True for the paths the wire answers: under the mount, and the exact origin-root documents. */
  owns(path: string): boolean;
  /** The handler of a direct route (see `WireRoute.direct`) when the request is for one; else null. */
  direct(req: IncomingMessage): ((req: IncomingMessage, res: ServerResponse) => unknown) | null;
}

/**
 * Porter's own Koa application. The floor runs in this order, so each refusal happens before
 * anything it protects: a clean close after a refused body → error envelope → `/orgs…`, and `org`
 * on `/approvals…` and `/grants…` (any method, any sub-path) → self-authenticating routes →
 * (per group) CSRF floor → JSON body → principal resolver → route. A router's middleware runs
 * only when one of its routes matched, so unknown paths are a plain 404 that resolves nobody, and
 * a known path asked with a method it does not take is 405 with `Allow`.
 */
export function createKoaWire(options: KoaWireOptions): KoaWire {
  const app = koaApp(options);
  const mount = options.mount === '/' ? '' : options.mount;
  const relative = (path: string) => relativeToMount(mount, path);

  // Everything below runs in the trace the request named (`traceparent`), unless the host's own
  // instrumentation already opened a span for it.
  if (options.telemetry) {
    const telemetry = options.telemetry;
    app.use((ctx, next) => telemetry.continueFrom(ctx.headers, next));
  }
  // Outside the envelope: it sees the status the envelope chose.
  app.use(closeAfterUnreadBody());
  app.use(errorEnvelope(options.logger));
  // Ahead of every router: the refusal covers paths and methods no route answers, too.
  app.use(orgRefusal(relative));

  // Paths match case-sensitively, exactly as `owns()` and the floor's own path rules read them:
  // a router that also answered `/API/Porter/Approvals` would let a request past the org refusal
  // and the CSRF floor, which never see it as a wire path.
  const routerOptions = { prefix: mount, sensitive: true } as const;
  const origin = new Router<WireState>({ sensitive: true });
  const self = new Router<WireState>(routerOptions);
  const open = new Router<WireState>(routerOptions);
  open.use(csrfFloor(relative), jsonBody(relative));
  const guarded = new Router<WireState>(routerOptions);
  guarded.use(
    csrfFloor(relative),
    jsonBody(relative),
    principalFloor({ resolve: options.resolve, identity: options.identity, ids: options.ids, logger: options.logger }),
  );

  const routers = { origin, self, open, principal: guarded } as const;
  const originPaths = new Set<string>();
  const groups: WireRoutes[] = [...options.routes];
  if (options.openApi) {
    const { version } = options.openApi;
    const openApi: WireRoutes = openApiRoutes(() => openApiDocument({ mount, version, groups: [...options.routes, openApi] }));
    groups.push(openApi);
  }
  for (const routes of groups) {
    registerRoutes(routers[routes.access], routes.routes, { ownShapes: routes.errorShape === 'own' });
    for (const path of routes.originPaths ?? []) originPaths.add(path);
  }
  // Around the routers: what none of them took, on a path one of them has, is a method matter.
  app.use(wrongMethod(groups, mount));
  for (const router of [origin, self, open, guarded]) app.use(router.routes());

  return {
    app,
    owns: (path) => relative(path) !== null || originPaths.has(path),
    direct: directLane(groups, mount, options),
  };
}

function koaApp(options: KoaWireOptions): Koa<WireState> {
  const trusted = options.trustProxy === true ? { hops: 1, addressHeader: 'x-forwarded-for' } : options.trustProxy || null;
  // Koa reads the client address from the header's entries, the last `maxIpsCount` only: those the
  // trusted proxies appended. The first entry of the whole header is whatever the client sent, so it
  // is never read (a client could otherwise name any address, and a fresh budget with it).
  const app = new Koa<WireState>({
    keys: [...options.cookieKeys],
    proxy: trusted !== null,
    ...defined({ proxyIpHeader: trusted?.addressHeader, maxIpsCount: trusted?.hops }),
  });
  app.silent = true;
  return app;
}

/**
 * The direct routes (`WireRoute.direct`: `self` routes of an exact path and method). They skip the
 * routers and the floor: a Koa context is made for the request and handed to the route, in the
 * trace the request named, and the route writes its own answer (`ctx.respond = false`). Anything
 * else about the path (another method, a trailing slash) still reaches the routers, which register
 * the same route.
 */
function directLane(groups: ReadonlyArray<WireRoutes>, mount: string, options: KoaWireOptions): KoaWire['direct'] {
  const routes = new Map<string, WireRoute>();
  for (const group of groups) {
    for (const route of group.routes) {
      if (!route.direct) continue;
      if (
        group.access !== 'self' ||
        route.method === 'all' ||
        pathParamsOf(route.path).length > 0 ||
        route.query ||
        route.body?.kind === 'json'
      )
        throw new Error(
          `Route ${route.id}: only a self route of one method and an exact path, reading no query or JSON body, can be direct`,
        );
      routes.set(`${route.method.toUpperCase()} ${mount}${route.path}`, route);
    }
  }
  if (routes.size === 0) return () => null;
  const app = koaApp(options);
  const { telemetry, logger } = options;
  const answer = async (route: WireRoute, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // A framework-free route needs no Koa context: Node's request in, its Response written back.
    if (route.web) return serveWeb(route.web, req, res, nodeOrigin(req, app.proxy));
    // No router ran: the route's context has no params to read (a direct route declares none).
    const ctx = Object.assign(app.createContext(req, res), { params: {} }) as WireRouteContext;
    await route.handle(ctx, { params: {}, query: undefined, body: undefined }, noNext);
    if (ctx.respond !== false) throw new Error(`direct route ${route.id} did not write its answer`);
  };
  const serve = async (route: WireRoute, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await answer(route, req, res);
    } catch (error) {
      if (res.headersSent) return void res.destroy();
      const { status, body } = toEnvelope(error, logger);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    }
  };
  return (req) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const route = routes.get(`${req.method} ${query === -1 ? url : url.slice(0, query)}`);
    if (!route) return null;
    return (req, res) => (telemetry ? telemetry.continueFrom(req.headers, () => serve(route, req, res)) : serve(route, req, res));
  };
}

const noNext = async () => undefined;
