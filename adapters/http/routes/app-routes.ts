import getRawBody from 'raw-body';
import { z } from 'zod';
import { UnsupportedMediaType } from '../../../domain/errors.js';
import { APP_MEDIA_TYPE, ARCHIVE_LIMITS } from '../../../ports/app-archive.js';
import type { AppsUseCases } from '../../../ports/use-cases/apps.js';
import { mediaType } from '../floor/csrf-floor.js';
import { App, AppList, appParams, EditResult, OpenPayload, PlacementList, VersionList } from '../shapes/app-shapes.js';
import { functionNameParam } from '../shapes/path-params.js';
import { bare, bytes, json, jsonBody, ownBody, route, type WireRoute } from '../wire-route.js';
import type { WireRoutes } from '../wire-routes.js';
import { principalOf, type WireRouteContext } from '../wire-state.js';
import { appDataRoutes } from './app-data-routes.js';
import { appViewRoutes } from './app-view-routes.js';
import { pageQuery } from './system-routes.js';

const SLOT = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'must be a slot name');
const createBody = z.strictObject({ prompt: z.string().trim().min(1).max(4000) });
const seedBody = z.strictObject({ slot: SLOT, instruction: z.string().trim().min(1).max(4000).optional() });
const placementsQuery = z.strictObject({
  slots: z
    .string()
    .min(1)
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(SLOT).min(1).max(50))
    .describe('Slot names, comma-separated (at most 50).'),
});
const editBody = z.strictObject({ instruction: z.string().trim().min(1).max(4000) });
const rebaseBody = z.strictObject({ slot: SLOT });
const noBody = z.union([z.undefined(), z.strictObject({})]);

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
    tag: 'Apps',
    routes: [...literalRoutes(apps), ...perAppRoutes(apps), ...appViewRoutes(apps), ...appDataRoutes(apps)],
  };
}

function literalRoutes(apps: AppsUseCases): WireRoute[] {
  return [
    route({
      id: 'listApps',
      method: 'get',
      path: '/apps',
      summary: "List the caller's apps",
      query: pageQuery,
      responses: { 200: json('Apps, newest first.', AppList) },
      handle: async (ctx, { query }) => {
        ctx.body = await apps.listApps.execute({ principal: principalOf(ctx), ...query });
      },
    }),
    route({
      id: 'createApp',
      method: 'post',
      path: '/apps',
      summary: 'Generate an app from a prompt',
      body: jsonBody(createBody),
      responses: { 201: json('The new app.', App) },
      errors: ['not-implemented', 'unavailable'],
      handle: async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await apps.createApp.execute({ principal: principalOf(ctx), prompt: body.prompt, signal: requestSignal(ctx) });
      },
    }),
    route({
      id: 'seedApp',
      method: 'post',
      path: '/apps/seed',
      summary: "Fork a remixable slot of the host's",
      description: 'The fork itself calls no model; `instruction` then edits it.',
      body: jsonBody(seedBody),
      responses: { 201: json('The fork.', App) },
      errors: ['not-found', 'not-implemented', 'unavailable'],
      handle: async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await apps.seedApp.execute({
          principal: principalOf(ctx),
          slot: body.slot,
          ...(body.instruction ? { instruction: body.instruction } : {}),
          signal: requestSignal(ctx),
        });
      },
    }),
    route({
      id: 'listPlacements',
      method: 'get',
      path: '/apps/placements',
      summary: "Which of the caller's forks fill some slots",
      query: placementsQuery,
      responses: { 200: json('One placement per slot.', PlacementList) },
      handle: async (ctx, { query }) => {
        ctx.body = await apps.listPlacements.execute({ principal: principalOf(ctx), slots: query.slots });
      },
    }),
    route({
      id: 'importApp',
      method: 'post',
      path: '/apps/import',
      summary: 'Import an app file',
      description: `Exempt from the CSRF floor: the type it demands forces a CORS preflight. At most ${ARCHIVE_LIMITS.maxArchiveBytes / 1024 / 1024} MiB and ${ARCHIVE_LIMITS.maxEntries} entries. An anonymous session may import an app without server code only (403 otherwise).`,
      body: ownBody(`An app file: a zip of \`app.json\` (the app document) and an optional \`app/\` tree of server files.`, {
        [APP_MEDIA_TYPE]: null,
      }),
      responses: { 201: json('The imported app.', App) },
      errors: ['validation', 'forbidden', 'unsupported-media-type', 'payload-too-large', 'unavailable'],
      handle: async (ctx) => {
        if (mediaType(ctx.get('content-type')) !== APP_MEDIA_TYPE)
          throw new UnsupportedMediaType(`An app file must be sent as ${APP_MEDIA_TYPE}`);
        const bytes = await getRawBody(ctx.req, {
          limit: ARCHIVE_LIMITS.maxArchiveBytes,
          ...(ctx.request.length !== undefined ? { length: ctx.request.length } : {}),
        });
        ctx.status = 201;
        ctx.body = await apps.importApp.execute({ principal: principalOf(ctx), bytes: new Uint8Array(bytes) });
      },
    }),
  ];
}

function perAppRoutes(apps: AppsUseCases): WireRoute[] {
  return [
    route({
      id: 'getApp',
      method: 'get',
      path: '/apps/:id',
      summary: 'Read an app with its document',
      params: appParams,
      responses: { 200: json('The app.', App) },
      handle: async (ctx, { params }) => {
        ctx.body = await apps.getApp.execute({ principal: principalOf(ctx), appId: params.id });
      },
    }),
    route({
      id: 'deleteApp',
      method: 'delete',
      path: '/apps/:id',
      summary: 'Delete an app, its data and its sandbox',
      params: appParams,
      responses: { 204: bare('Deleted.') },
      errors: ['unavailable'],
      handle: async (ctx, { params }) => {
        await apps.deleteApp.execute({ principal: principalOf(ctx), appId: params.id });
        ctx.status = 204;
      },
    }),
    route({
      id: 'openApp',
      method: 'get',
      path: '/apps/:id/open',
      summary: 'What a client renders for an app',
      params: appParams,
      responses: { 200: json('The document to render, or the served page to frame.', OpenPayload) },
      errors: ['unavailable'],
      handle: async (ctx, { params }) => {
        ctx.body = await apps.openApp.execute({ principal: principalOf(ctx), appId: params.id });
      },
    }),
    route({
      id: 'editApp',
      method: 'post',
      path: '/apps/:id/edit',
      summary: 'Edit an app with an instruction',
      params: appParams,
      body: jsonBody(editBody),
      responses: { 200: json('The edited app, and the pins that drifted.', EditResult) },
      errors: ['forbidden', 'conflict', 'not-implemented', 'unavailable'],
      handle: async (ctx, { params, body }) => {
        ctx.body = await apps.editApp.execute({
          principal: principalOf(ctx),
          appId: params.id,
          instruction: body.instruction,
          signal: requestSignal(ctx),
        });
      },
    }),
    route({
      id: 'listVersions',
      method: 'get',
      path: '/apps/:id/versions',
      summary: "List an app's versions",
      params: appParams,
      responses: { 200: json("The app's versions.", VersionList) },
      handle: async (ctx, { params }) => {
        ctx.body = await apps.listVersions.execute({ principal: principalOf(ctx), appId: params.id });
      },
    }),
    route({
      id: 'exportApp',
      method: 'get',
      path: '/apps/:id/export',
      summary: 'Export an app file',
      params: appParams,
      responses: {
        200: {
          ...bytes('The app file (a zip of `app.json` and `app/`), as an attachment.', APP_MEDIA_TYPE),
          headers: { 'content-disposition': { description: '`attachment` with the file name.', schema: z.string() } },
        },
      },
      handle: async (ctx, { params }) => {
        const file = await apps.exportApp.execute({ principal: principalOf(ctx), appId: params.id });
        ctx.type = APP_MEDIA_TYPE;
        ctx.attachment(file.filename);
        ctx.body = Buffer.from(file.bytes);
      },
    }),
    route({
      id: 'rebasePin',
      method: 'post',
      path: '/apps/:id/rebase',
      summary: 'Rebase a drifted fork on the host component',
      description:
        'All or nothing: re-forks from the new baseline and replays the edit trail. Approvals granted against the pre-rebase content are invalidated.',
      params: appParams,
      body: jsonBody(rebaseBody),
      responses: { 200: json('The rebased app.', EditResult) },
      errors: ['conflict', 'not-implemented', 'unavailable'],
      handle: async (ctx, { params, body }) => {
        ctx.body = await apps.rebasePin.execute({
          principal: principalOf(ctx),
          appId: params.id,
          slot: body.slot,
          signal: requestSignal(ctx),
        });
      },
    }),
    route({
      id: 'graduateApp',
      method: 'post',
      path: '/apps/:id/graduate',
      summary: 'Graduate an app to a served app',
      description:
        'Writes the scaffold, starts the server in the sandbox and takes a snapshot; only then does `ui` become `http`. A failed step leaves the app as it was. An anonymous session may not graduate (403).',
      params: appParams,
      body: jsonBody(noBody),
      responses: { 200: json('The served app.', App) },
      errors: ['forbidden', 'conflict', 'not-implemented', 'unavailable'],
      handle: async (ctx, { params }) => {
        ctx.body = await apps.graduateApp.execute({ principal: principalOf(ctx), appId: params.id });
      },
    }),
    route({
      id: 'callFunction',
      method: 'post',
      path: '/apps/:id/fn/:name',
      summary: "Call a served app's function",
      description:
        "Proxied to `POST /fn/<name>` on the app's own server. The answer is the app's, sent with `content-security-policy: default-src 'none'; sandbox`.",
      params: { ...appParams, name: functionNameParam },
      body: jsonBody(z.unknown().describe("Any JSON: the function's input."), 'input'),
      responses: { 200: bytes("The function's answer: its status (2xx) and content type are the app's.", '*/*') },
      errors: ['conflict', 'not-implemented', 'unavailable'],
      handle: async (ctx, { params, body }) => {
        const answer = await apps.callFunction.execute({
          principal: principalOf(ctx),
          appId: params.id,
          name: params.name,
          input: body ?? null,
        });
        ctx.status = answer.status;
        ctx.type = answer.contentType;
        // The answer is the app's (it may say text/html), served from the wire's origin: never a page there.
        ctx.set({ 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" });
        ctx.body = Buffer.from(answer.body);
      },
    }),
  ];
}
