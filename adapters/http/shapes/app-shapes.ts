import { z } from 'zod';
import { APP_FORMAT, NODE_TYPES } from '../../../domain/apps/app-document.js';
import { isoTime, JsonValue, nextCursor, Risk } from './common-shapes.js';
import { idParam } from './path-params.js';

const PropValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const AppDocument = z
  .object({
    format: z.literal(APP_FORMAT),
    title: z.string(),
    ui: z.enum(['tree', 'http']).describe('`http` once the app has graduated to a served app.'),
    scope: z.enum(['owner', 'shared']),
    root: z.string().describe('The id of the root node.'),
    nodes: z.record(
      z.string(),
      z.object({
        type: z.enum(NODE_TYPES),
        props: z.record(z.string(), PropValue).optional(),
        children: z.array(z.string()).optional(),
        bind: z.string().optional().describe('A key of `data`.'),
        action: z.string().optional().describe('A key of `actions`.'),
      }),
    ),
    data: z.record(z.string(), z.object({ collection: z.string() })),
    actions: z.record(
      z.string(),
      z.union([
        z.object({ kind: z.literal('put-record'), collection: z.string() }),
        z.object({ kind: z.literal('delete-record'), collection: z.string() }),
        z.object({ kind: z.literal('call'), target: z.string().describe('`fn:<name>`: runs only once the app is served.') }),
        z.object({ kind: z.literal('tool'), tool: z.string(), input: z.record(z.string(), PropValue).optional() }),
      ]),
    ),
    server: z.object({ files: z.record(z.string(), z.string()) }).nullable(),
    egress: z.object({ allowDomains: z.array(z.string()) }).nullable(),
  })
  .meta({
    id: 'AppDocument',
    description: 'A generated app: a tree of nodes the shipped renderer draws, bound to its own records and actions.',
  });

export const PinDrift = z.object({ slot: z.string(), baselineHash: z.string(), currentHash: z.string() }).meta({ id: 'PinDrift' });

const appSummaryFields = {
  id: z.string(),
  title: z.string(),
  ui: z.enum(['tree', 'http']),
  scope: z.enum(['owner', 'shared']),
  version: z.string(),
  versionNumber: z.number().int(),
  nodes: z.number().int(),
  slot: z.string().nullable().describe('The remixable slot this app forks, if it is a fork.'),
  drifted: z.boolean(),
  createdAt: isoTime,
  updatedAt: isoTime,
};

export const AppSummary = z.object(appSummaryFields).meta({ id: 'AppSummary' });

export const AppList = z.object({ apps: z.array(AppSummary), nextCursor }).meta({ id: 'AppList' });

export const App = z
  .object({
    ...appSummaryFields,
    document: AppDocument,
    contentHash: z.string(),
    fnRefs: z.array(z.string()).describe('`fn:<name>` references; they run only once the app is served.'),
  })
  .meta({ id: 'App' });

/** Which of the caller's forks fills a slot. */
const Placement = z.object({
  slot: z.string(),
  appId: z.string().nullable().describe("The caller's newest fork of the slot; null: render the host's own component."),
  version: z.string().nullable(),
  drifted: z.boolean(),
});

export const PlacementList = z.object({ placements: z.array(Placement) }).meta({ id: 'PlacementList' });

export const OpenPayload = z
  .object({
    kind: z
      .enum(['tree', 'http', 'resuming', 'stopped'])
      .describe(
        '`resuming`: served, but its server is being brought back. `stopped`: its sandbox stopped its server for crossing a limit (see `stopped`).',
      ),
    payload: z.object({ appId: z.string(), version: z.string(), document: AppDocument }).optional(),
    url: z.string().optional().describe("A served app's own page through the wire (`/apps/<id>/view/`); frame it sandboxed."),
    pinDrift: PinDrift.nullable(),
    stopped: z
      .object({
        limit: z.enum(['processes', 'memory', 'cpu', 'disk']),
        message: z.string().describe('For its owner: what it crossed.'),
        retryAt: z.string().describe('When a request may start it again (ISO 8601); an edit starts it at once.'),
      })
      .optional(),
  })
  .meta({ id: 'OpenPayload' });

export const EditResult = z
  .object({ app: App, driftedPins: z.array(PinDrift), issues: z.array(z.string()).optional() })
  .meta({ id: 'EditResult' });

/** One saved version of an app, and the change that made it. */
const Version = z.object({
  id: z.string(),
  number: z.number().int(),
  change: z.enum(['create', 'edit', 'import', 'seed', 'rebase', 'graduate']),
  contentHash: z.string(),
  createdAt: isoTime,
  instruction: z.string().optional(),
});

export const VersionList = z.object({ versions: z.array(Version) }).meta({ id: 'VersionList' });

export const ActionAnswer = z
  .union([
    z.object({ status: z.literal('ran'), output: z.unknown() }),
    z.object({ status: z.literal('parked'), approvalId: z.string(), toolCallId: z.string(), risk: Risk, preview: z.string() }),
  ])
  .meta({ id: 'ActionAnswer' });

export const AppRecord = z
  .object({ id: z.string(), collection: z.string(), data: JsonValue, createdAt: isoTime, updatedAt: isoTime })
  .meta({ id: 'AppRecord' });

export const AppRecordList = z.object({ records: z.array(AppRecord), nextCursor }).meta({ id: 'AppRecordList' });

export const Deleted = z.object({ deleted: z.number().int() }).meta({ id: 'Deleted' });

export const StoredBlob = z.object({ key: z.string(), contentType: z.string(), size: z.number().int() }).meta({ id: 'StoredBlob' });

/** The `:id` of the per-app routes. */
export const appParams = { id: idParam('app') };
