import { z } from 'zod';
import type { AppsUseCases } from '../../../ports/use-cases/apps.js';
import { appParams } from '../shapes/app-shapes.js';
import { bytes, route, type WireRoute } from '../wire-route.js';
import type { WireRouteContext } from '../wire-state.js';
import { principalOf } from '../wire-state.js';
import { defined } from '../../../domain/defined.js';

/**
 * What every page of a served app carries. Its code is generated, not the host's, and it is served
 * from the wire's own origin: the sandbox (without allow-same-origin) gives it an opaque origin, so
 * its scripts cannot read the person's cookies or call the wire as them, whoever frames it.
 */
export const SERVED_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': 'sandbox allow-scripts allow-forms',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // Pages differ per person (only those who may see the app get them): no shared cache keeps one.
  'cache-control': 'private, no-store',
};

const MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;[\x20-\x7e]*)?$/;
/** The part of the raw (still percent-encoded) path after `/apps/<id>/view`. */
const AFTER_VIEW = /\/apps\/[^/]+\/view(\/.*)?$/;

/**
 * `GET /apps/:id/view` and `GET /apps/:id/view/*`: the served app's own pages and assets, passed on
 * from its sandbox so a client can frame them. Registered with the other `/apps/:id` routes.
 */
export function appViewRoutes(apps: AppsUseCases): WireRoute[] {
  const view = async (ctx: WireRouteContext) => {
    const rest = AFTER_VIEW.exec(ctx.path)?.[1] ?? '/';
    const answer = await apps.viewServedApp.execute({
      principal: principalOf(ctx),
      appId: ctx.params.id!,
      path: `${rest}${ctx.querystring ? `?${ctx.querystring}` : ''}`,
      ...defined({
        accept: ctx.get('accept') || undefined,
        acceptLanguage: ctx.get('accept-language') || undefined,
      }),
    });
    ctx.status = answer.status;
    ctx.set(SERVED_PAGE_HEADERS);
    // Set before the body, so Koa keeps it instead of guessing one.
    ctx.set('content-type', MEDIA_TYPE.test(answer.contentType) ? answer.contentType : 'application/octet-stream');
    ctx.body = Buffer.from(answer.body);
  };
  const page = bytes(
    "The served app's page or asset, as its server answered (status and content type are the app's); sandboxed, never cached.",
    '*/*',
  );
  const description = "The app's query string is passed on. Frame the page (it runs sandboxed, in an opaque origin).";
  return [
    route({
      id: 'viewServedApp',
      method: 'get',
      path: '/apps/:id/view',
      summary: "A served app's home page",
      description,
      params: appParams,
      responses: { 200: page },
      errors: ['conflict', 'unavailable'],
      handle: view,
    }),
    route({
      id: 'viewServedAppPath',
      method: 'get',
      path: '/apps/:id/view/{*rest}',
      summary: "A served app's page or asset",
      description,
      params: { ...appParams, rest: z.string().optional().describe('The path inside the app; it may span several segments.') },
      responses: { 200: page },
      errors: ['conflict', 'unavailable'],
      handle: view,
    }),
  ];
}
