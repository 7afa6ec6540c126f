import getRawBody from 'raw-body';
import { z } from 'zod';
import { UnsupportedMediaType } from '../../../domain/errors.js';
import { APP_MEDIA_TYPE, ARCHIVE_LIMITS } from '../../../ports/app-archive.js';
import type { AppsUseCases } from '../../../ports/use-cases/apps.js';
import { mediaType } from '../floor/csrf-floor.js';
import { parse } from '../validation.js';
import type { WireRoutes } from '../wire-routes.js';
import { bodyOf, principalOf, type WireRouteContext } from '../wire-state.js';
import { registerAppDataRoutes } from './app-data-routes.js';
import { registerAppViewRoutes } from './app-view-routes.js';
import { pageQuery } from './system-routes.js';

const SLOT = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'must be a slot name');
const createBody = z.strictObject({ prompt: z.string().trim().min(1).max(4000) });
const seedBody = z.strictObject({ slot: SLOT, instruction: z.string().trim().min(1).max(4000).optional() });
const placementsQuery = z.strictObject({
  slots: z
    .string()
    .min(1)
    .transform((value) => [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))])
    .pipe(z.array(SLOT).min(1).max(50)),
});
const editBody = z.strictObject({ instruction: z.string().trim().min(1).max(4000) });
const rebaseBody = z.strictObject({ slot: SLOT });
const noBody = z.union([z.undefined(), z.strictObject({})]);
const fnName = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be a function name');

/** Aborts generation (or an app's tool call) when the person who asked for it goes away. */
export function requestSignal(ctx: WireRouteContext): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Generated apps. The literal routes (`/apps/seed`, `/apps/placements`, `/apps/import`) are
 * registered before the `/apps/:id` routes. `POST /apps/import` reads its own body (the CSRF
 * floor exempts it because it demands a media type that forces a CORS preflight).
 */
export function appRoutes(apps: AppsUseCases): WireRoutes {
  return {
    access: 'principal',
    register(router) {
      router.get('/apps', async (ctx) => {
        ctx.body = await apps.listApps.execute({ principal: principalOf(ctx), ...parse(pageQuery, ctx.query, 'query') });
      });
      router.post('/apps', async (ctx) => {
        const { prompt } = parse(createBody, bodyOf(ctx), 'body');
        ctx.status = 201;
        ctx.body = await apps.createApp.execute({ principal: principalOf(ctx), prompt, signal: requestSignal(ctx) });
      });
      router.post('/apps/seed', async (ctx) => {
        const body = parse(seedBody, bodyOf(ctx), 'body');
        ctx.status = 201;
        ctx.body = await apps.seedApp.execute({ principal: principalOf(ctx), slot: body.slot, ...(body.instruction ? { instruction: body.instruction } : {}), signal: requestSignal(ctx) });
      });
      router.get('/apps/placements', async (ctx) => {
        const { slots } = parse(placementsQuery, ctx.query, 'query');
        ctx.body = await apps.listPlacements.execute({ principal: principalOf(ctx), slots });
      });
      router.post('/apps/import', async (ctx) => {
        if (mediaType(ctx.get('content-type')) !== APP_MEDIA_TYPE) throw new UnsupportedMediaType(`An app file must be sent as ${APP_MEDIA_TYPE}`);
        const bytes = await getRawBody(ctx.req, { limit: ARCHIVE_LIMITS.maxArchiveBytes, ...(ctx.request.length !== undefined ? { length: ctx.request.length } : {}) });
        ctx.status = 201;
        ctx.body = await apps.importApp.execute({ principal: principalOf(ctx), bytes: new Uint8Array(bytes) });
      });

      router.get('/apps/:id', async (ctx) => {
        ctx.body = await apps.getApp.execute({ principal: principalOf(ctx), appId: ctx.params.id! });
      });
      router.delete('/apps/:id', async (ctx) => {
        await apps.deleteApp.execute({ principal: principalOf(ctx), appId: ctx.params.id! });
        ctx.status = 204;
      });
      router.get('/apps/:id/open', async (ctx) => {
        ctx.body = await apps.openApp.execute({ principal: principalOf(ctx), appId: ctx.params.id! });
      });
      router.post('/apps/:id/edit', async (ctx) => {
        const { instruction } = parse(editBody, bodyOf(ctx), 'body');
        ctx.body = await apps.editApp.execute({ principal: principalOf(ctx), appId: ctx.params.id!, instruction, signal: requestSignal(ctx) });
      });
      router.get('/apps/:id/versions', async (ctx) => {
        ctx.body = await apps.listVersions.execute({ principal: principalOf(ctx), appId: ctx.params.id! });
      });
      router.get('/apps/:id/export', async (ctx) => {
        const file = await apps.exportApp.execute({ principal: principalOf(ctx), appId: ctx.params.id! });
        ctx.type = APP_MEDIA_TYPE;
        ctx.attachment(file.filename);
        ctx.body = Buffer.from(file.bytes);
      });
      router.post('/apps/:id/rebase', async (ctx) => {
        const { slot } = parse(rebaseBody, bodyOf(ctx), 'body');
        ctx.body = await apps.rebasePin.execute({ principal: principalOf(ctx), appId: ctx.params.id!, slot, signal: requestSignal(ctx) });
      });
      router.post('/apps/:id/graduate', async (ctx) => {
        parse(noBody, bodyOf(ctx), 'body');
        ctx.body = await apps.graduateApp.execute({ principal: principalOf(ctx), appId: ctx.params.id! });
      });
      router.post('/apps/:id/fn/:name', async (ctx) => {
        const name = parse(fnName, ctx.params.name, 'function name');
        const answer = await apps.callFunction.execute({ principal: principalOf(ctx), appId: ctx.params.id!, name, input: bodyOf(ctx) ?? null });
        ctx.status = answer.status;
        ctx.type = answer.contentType;
        // The answer is the app's (it may say text/html), served from the wire's origin: never a page there.
        ctx.set({ 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" });
        ctx.body = Buffer.from(answer.body);
      });
      registerAppViewRoutes(router, apps);
      registerAppDataRoutes(router, apps);
    },
  };
}
