import getRawBody from 'raw-body';
import { z } from 'zod';
import { UnsupportedMediaType } from '../../../domain/errors.js';
import { APP_MEDIA_TYPE, ARCHIVE_LIMITS } from '../../../ports/app-archive.js';
import type { AppsUseCases } from '../../../ports/use-cases/apps.js';
import { mediaType } from '../floor/csrf-floor.js';
import { App, AppList, appParams, EditResult, OpenPayload, PlacementList, VersionList } from '../shapes/app-shapes.js';
import { JsonValue } from '../shapes/common-shapes.js';
import { writtenText } from '../shapes/written-text.js';
import { functionNameParam } from '../shapes/path-params.js';
import { bytes, json, jsonBody, ownBody, route, type WireRoute } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';
import { appDataRoutes } from './app-data-routes.js';
import { appViewRoutes } from './app-view-routes.js';
import { callerRoutes, type CallerRoutes } from './caller-routes.js';
import { defined } from '../../../domain/defined.js';

const SLOT_NAME = '[A-Za-z0-9][A-Za-z0-9_.-]{0,99}';
const SLOT = z.string().regex(new RegExp(`^${SLOT_NAME}$`), 'must be a slot name');
/** Up to 50 slot names, comma-separated; blanks and empty entries around the commas are ignored. */
const SLOT_LIST = new RegExp(`^[\\s,]*${SLOT_NAME}(?:\\s*,[\\s,]*${SLOT_NAME}){0,49}[\\s,]*$`);
const createBody = z.strictObject({ prompt: writtenText(4000) });
const seedBody = z.strictObject({ slot: SLOT, instruction: writtenText(4000).optional() });
const placementsQuery = z.strictObject({
  slots: z
    .string()
    .regex(SLOT_LIST, 'must be slot names, comma-separated (at most 50)')
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ])
    .describe('Slot names, comma-separated (at most 50); blanks around the commas are ignored.'),
});
const editBody = z.strictObject({ instruction: writtenText(4000) });
const rebaseBody = z.strictObject({ slot: SLOT });
/** Routes on the caller's apps, an app named by `:id`. */
function appCalls(apps: AppsUseCases): CallerRoutes<AppsUseCases, 'appId'> {
  return callerRoutes(apps, { param: appParams.id, key: 'appId' });
}

/**
 * Generated apps. The literal routes (`/apps/seed`, `/apps/placements`, `/apps/import`) are
 * registered before the `/apps/:id` routes. `POST /apps/import` reads its own body (the CSRF
 * floor exempts it because it demands a media type that forces a CORS preflight).
 */
export function appRoutes(apps: AppsUseCases): WireRoutes {
  return principalFamily('Apps', [...literalRoutes(apps), ...perAppRoutes(apps), ...appViewRoutes(apps), ...appDataRoutes(apps)]);
}

function literalRoutes(apps: AppsUseCases): WireRoute[] {
  const app = appCalls(apps);
  return [
    app.list('/apps', 'listApps', {
      summary: "List the caller's apps",
      responses: { 200: json('Apps, newest first.', AppList) },
    }),
    app.post('/apps', 'createApp', {
      summary: 'Generate an app from a prompt',
      description:
        "Pays one of the caller's `appGenerations` and holds one of their turns in flight before the model is asked, and pays the tokens it spends: 429 when any is spent.",
      body: jsonBody(createBody),
      signal: true,
      responses: { 201: json('The new app.', App) },
      errors: ['rate-limited', 'not-implemented', 'unavailable'],
    }),
    app.post('/apps/seed', 'seedApp', {
      summary: "Fork a remixable slot of the host's",
      description:
        "The fork itself calls no model; `instruction` then edits it, paid like an edit (one of the caller's `appGenerations` and a place among their turns in flight, reserved before the model is asked, and its tokens): 429 when any is spent.",
      body: jsonBody(seedBody),
      signal: true,
      responses: { 201: json('The fork.', App) },
      errors: ['not-found', 'rate-limited', 'not-implemented', 'unavailable'],
    }),
    app.get('/apps/placements', 'listPlacements', {
      summary: "Which of the caller's forks fill some slots",
      query: placementsQuery,
      responses: { 200: json('One placement per slot.', PlacementList) },
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
          ...defined({ length: ctx.request.length }),
        });
        ctx.status = 201;
        ctx.body = await apps.importApp.execute({ principal: principalOf(ctx), bytes: new Uint8Array(bytes) });
      },
    }),
  ];
}

function perAppRoutes(apps: AppsUseCases): WireRoute[] {
  const app = appCalls(apps);
  return [
    app.get('/apps/:id', 'getApp', {
      summary: 'Read an app with its document',
      responses: { 200: json('The app.', App) },
    }),
    app.delete('/apps/:id', 'deleteApp', {
      summary: 'Delete an app, its data and its sandbox',
      errors: ['unavailable'],
    }),
    app.get('/apps/:id/open', 'openApp', {
      summary: 'What a client renders for an app',
      responses: { 200: json('The document to render, or the served page to frame.', OpenPayload) },
      errors: ['unavailable'],
    }),
    app.post('/apps/:id/edit', 'editApp', {
      summary: 'Edit an app with an instruction',
      description:
        "Pays one of the caller's `appGenerations` and holds one of their turns in flight before the model is asked, and pays the tokens it spends: 429 when any is spent.",
      body: jsonBody(editBody),
      signal: true,
      responses: { 200: json('The edited app, and the pins that drifted.', EditResult) },
      errors: ['forbidden', 'conflict', 'rate-limited', 'not-implemented', 'unavailable'],
    }),
    app.get('/apps/:id/versions', 'listVersions', {
      summary: "List an app's versions",
      responses: { 200: json("The app's versions.", VersionList) },
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
    app.post('/apps/:id/rebase', 'rebasePin', {
      summary: 'Rebase a drifted fork on the host component',
      description:
        "All or nothing: re-forks from the new baseline and replays the edit trail. Approvals granted against the pre-rebase content are invalidated. A replay pays one of the caller's `appGenerations` and holds a place among their turns in flight before the model is first asked, and pays the tokens of every step: 429 when any is spent.",
      body: jsonBody(rebaseBody),
      signal: true,
      responses: { 200: json('The rebased app.', EditResult) },
      errors: ['conflict', 'rate-limited', 'not-implemented', 'unavailable'],
    }),
    app.post('/apps/:id/graduate', 'graduateApp', {
      summary: 'Graduate an app to a served app',
      description:
        'Writes the scaffold, starts the server in the sandbox and takes a snapshot; only then does `ui` become `http`. A failed step leaves the app as it was. An anonymous session may not graduate (403).',
      responses: { 200: json('The served app.', App) },
      errors: ['forbidden', 'conflict', 'not-implemented', 'unavailable'],
    }),
    route({
      id: 'callFunction',
      method: 'post',
      path: '/apps/:id/fn/:name',
      summary: "Call a served app's function",
      description:
        "Proxied to `POST /fn/<name>` on the app's own server. The answer is the app's, sent with `content-security-policy: default-src 'none'; sandbox`.",
      params: { ...appParams, name: functionNameParam },
      body: jsonBody(
        z
          .union([z.record(z.string(), JsonValue), z.array(JsonValue)])
          .describe("The function's input: a JSON object or array (a JSON body is one of those)."),
        'input',
      ),
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
