import { z } from 'zod';
import { viewOfDocument, viewPartId, type AppView } from '../../domain/apps/app-view.js';
import { CREATE_RISK, editRisk } from '../../domain/apps/edit-rule.js';
import type { ToolContext, ToolDefinition } from '../../ports/tool-registry.js';
import type { AppDetail, AppsUseCases, ViewSink } from '../../ports/use-cases/apps.js';
import { defineTool } from '../tools/define-tool.js';
import type { AppBook } from './app-book.js';
import { defined } from '../../domain/defined.js';

const APP_ID = z
  .string()
  .regex(/^app_[0-9A-Za-z_-]{10,64}$/)
  .describe('The app id (app_…)');
const COLLECTION = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const RECORD_ID = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);
const INSTRUCTION = z.string().min(1).max(4000);
/** A record's data: any JSON value, described flat (no $ref) so every provider takes the schema. */
const JSON_VALUE = z
  .union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown()), z.record(z.string(), z.unknown())])
  .describe('Any JSON value: an object, array, string, number, boolean or null')
  // A `type` beside the `anyOf`, for clients and providers that want every property typed.
  .meta({ type: ['string', 'number', 'boolean', 'null', 'array', 'object'] });

/** The tool that opens an app; through the door, its result shows the app to an MCP Apps host. */
export const OPEN_APP_TOOL = 'porter_apps_open';

/** Streams each view of the app to the person watching, under the app's one part id. */
function viewSink(context: ToolContext): ViewSink | undefined {
  const write = context.writeData;
  return write ? (view: AppView) => write({ type: 'data-porter-view', id: viewPartId(view.appId), data: view }) : undefined;
}

/** What the model is told about an app: short, never the whole document. */
/**
 * A chat turn's or a run's tool call runs inside the agent loop, which holds the person's place
 * among their turns in flight already (one call at a time); the door's and an app's do not.
 */
function withinTurn(context: ToolContext): boolean {
  return context.venue === 'chat' || context.venue === 'automation';
}

function brief(app: AppDetail) {
  return { appId: app.id, title: app.title, ui: app.ui, version: app.version, nodes: app.nodes, fnRefs: app.fnRefs, drifted: app.drifted };
}

/**
 * The agent's apps tools. Create is always read-class; edit is read-class only for an
 * owner-scoped tree app whose instruction needs no server code (resolved at call time, from the
 * stored app), and otherwise asks like any write.
 */
export function appTools(apps: AppsUseCases, book: AppBook): ToolDefinition[] {
  return [
    defineTool({
      name: 'porter_apps_create',
      description: 'Generate a new app (a tree of UI nodes with its own data) from a description. The person watches it appear.',
      input: z.strictObject({ prompt: INSTRUCTION }),
      risk: CREATE_RISK,
      // Read-class for the guard (it runs without asking), yet it creates an app: never read-only to clients.
      readOnly: false,
      async execute({ prompt }, context) {
        const view = viewSink(context);
        return brief(
          await apps.createApp.execute({
            principal: context.principal,
            prompt,
            signal: context.signal,
            withinTurn: withinTurn(context),
            ...defined({ view }),
          }),
        );
      },
    }),
    defineTool({
      name: 'porter_apps_edit',
      description: 'Change an existing app as instructed. Edits that need server code ask the person first.',
      input: z.strictObject({ appId: APP_ID, instruction: INSTRUCTION }),
      risk: 'write',
      async resolveRisk({ appId, instruction }, { principal }) {
        const loaded = await book.find(appId);
        const app = loaded && loaded.app.isOwnedBy(principal.subject) ? loaded.app.document : null;
        return { risk: editRisk(app, instruction), egress: false };
      },
      async approvalContext({ appId }, { principal }) {
        const loaded = await book.find(appId);
        return loaded && loaded.app.isOwnedBy(principal.subject) ? { appId: loaded.app.id, contentHash: loaded.app.contentHash } : null;
      },
      preview: ({ appId, instruction }) =>
        `Edit app ${appId}: ${instruction.length > 160 ? `${instruction.slice(0, 157)}...` : instruction}`,
      async execute({ appId, instruction }, context) {
        const view = viewSink(context);
        const result = await apps.editApp.execute({
          principal: context.principal,
          appId,
          instruction,
          signal: context.signal,
          withinTurn: withinTurn(context),
          ...defined({ view }),
        });
        return { ...brief(result.app), driftedPins: result.driftedPins, ...defined({ issues: result.issues }) };
      },
    }),
    defineTool({
      name: OPEN_APP_TOOL,
      description: 'Open an app: its document (tree apps) or where its server answers (served apps), and whether its pin drifted.',
      input: z.strictObject({ appId: APP_ID }),
      risk: 'read',
      async execute({ appId }, context) {
        const opened = await apps.openApp.execute({ principal: context.principal, appId });
        if (opened.payload) viewSink(context)?.(viewOfDocument(opened.payload.appId, opened.payload.document, opened.pinDrift));
        return {
          kind: opened.kind,
          ...defined({ url: opened.url || undefined }),
          pinDrift: opened.pinDrift,
          title: opened.payload?.document.title,
          version: opened.payload?.version,
        };
      },
    }),
    defineTool({
      name: 'porter_apps_rebase_pin',
      description: 'Re-make a drifted fork of a host component from its new baseline, replaying its edits. Only when the person asks.',
      input: z.strictObject({ appId: APP_ID, slot: z.string().min(1).max(100) }),
      risk: 'write',
      preview: ({ appId, slot }) => `Rebase app ${appId} onto the new "${slot}" component`,
      async execute({ appId, slot }, context) {
        const result = await apps.rebasePin.execute({
          principal: context.principal,
          appId,
          slot,
          signal: context.signal,
          withinTurn: withinTurn(context),
        });
        return { ...brief(result.app), driftedPins: result.driftedPins };
      },
    }),
    defineTool({
      name: 'porter_apps_data_list',
      description: "List records of one collection of an app's own data.",
      input: z.strictObject({ appId: APP_ID, collection: COLLECTION }),
      risk: 'read',
      async execute({ appId, collection }, context) {
        return apps.listRecords.execute({ principal: context.principal, appId, collection, limit: 100 });
      },
    }),
    defineTool({
      name: 'porter_apps_data_put',
      description: "Create or replace a record in one collection of an app's own data.",
      input: z.strictObject({ appId: APP_ID, collection: COLLECTION, id: RECORD_ID.optional(), data: JSON_VALUE }),
      risk: 'write',
      preview: ({ appId, collection }) => `Save a record in ${collection} of app ${appId}`,
      async execute({ appId, collection, id, data }, context) {
        return apps.putRecord.execute({ principal: context.principal, appId, collection, data, ...defined({ recordId: id || undefined }) });
      },
    }),
    defineTool({
      name: 'porter_apps_data_delete',
      description: "Delete a record from an app's own data.",
      input: z.strictObject({ appId: APP_ID, collection: COLLECTION, id: RECORD_ID }),
      risk: 'destructive',
      preview: ({ appId, collection, id }) => `Delete record ${id} from ${collection} of app ${appId}`,
      async execute({ appId, collection, id }, context) {
        return apps.deleteRecords.execute({ principal: context.principal, appId, collection, recordId: id });
      },
    }),
  ];
}
