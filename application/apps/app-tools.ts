import { viewOfDocument, viewPartId, type AppView } from '../../domain/apps/app-view.js';
import { CREATE_RISK, editRisk } from '../../domain/apps/edit-rule.js';
import type { ToolContext, ToolDefinition } from '../../ports/tool-registry.js';
import type { AppDetail, AppsUseCases, ViewSink } from '../../ports/use-cases/apps.js';
import type { AppBook } from './app-book.js';

const APP_ID = { type: 'string', pattern: '^app_[0-9A-Za-z_-]{10,64}$', description: 'The app id (app_…)' };
const COLLECTION = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' };
const RECORD_ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' };

/** Streams each view of the app to the person watching, under the app's one part id. */
function viewSink(context: ToolContext): ViewSink | undefined {
  const write = context.writeData;
  return write ? (view: AppView) => write({ type: 'data-porter-view', id: viewPartId(view.appId), data: view }) : undefined;
}

/** What the model is told about an app: short, never the whole document. */
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
    {
      name: 'porter_apps_create',
      description: 'Generate a new app (a tree of UI nodes with its own data) from a description. The person watches it appear.',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string', minLength: 1, maxLength: 4000 } }, required: ['prompt'], additionalProperties: false },
      risk: CREATE_RISK,
      async execute(input, context) {
        const { prompt } = input as { prompt: string };
        const view = viewSink(context);
        return brief(await apps.createApp.execute({ principal: context.principal, prompt, signal: context.signal, ...(view ? { view } : {}) }));
      },
    },
    {
      name: 'porter_apps_edit',
      description: 'Change an existing app as instructed. Edits that need server code ask the person first.',
      inputSchema: {
        type: 'object',
        properties: { appId: APP_ID, instruction: { type: 'string', minLength: 1, maxLength: 4000 } },
        required: ['appId', 'instruction'],
        additionalProperties: false,
      },
      risk: 'write',
      async resolveRisk(input, { principal }) {
        const { appId, instruction } = input as { appId: string; instruction: string };
        const loaded = await book.find(appId);
        const app = loaded && loaded.app.isOwnedBy(principal.subject) ? loaded.app.document : null;
        return { risk: editRisk(app, instruction), egress: false };
      },
      async approvalContext(input, { principal }) {
        const loaded = await book.find((input as { appId: string }).appId);
        return loaded && loaded.app.isOwnedBy(principal.subject) ? { appId: loaded.app.id, contentHash: loaded.app.contentHash } : null;
      },
      preview: (input) => {
        const { appId, instruction } = input as { appId: string; instruction: string };
        return `Edit app ${appId}: ${instruction.length > 160 ? `${instruction.slice(0, 157)}...` : instruction}`;
      },
      async execute(input, context) {
        const { appId, instruction } = input as { appId: string; instruction: string };
        const view = viewSink(context);
        const result = await apps.editApp.execute({ principal: context.principal, appId, instruction, signal: context.signal, ...(view ? { view } : {}) });
        return { ...brief(result.app), driftedPins: result.driftedPins, ...(result.issues ? { issues: result.issues } : {}) };
      },
    },
    {
      name: 'porter_apps_open',
      description: 'Open an app: its document (tree apps) or where its server answers (served apps), and whether its pin drifted.',
      inputSchema: { type: 'object', properties: { appId: APP_ID }, required: ['appId'], additionalProperties: false },
      risk: 'read',
      async execute(input, context) {
        const opened = await apps.openApp.execute({ principal: context.principal, appId: (input as { appId: string }).appId });
        if (opened.payload) viewSink(context)?.(viewOfDocument(opened.payload.appId, opened.payload.document, opened.pinDrift));
        return { kind: opened.kind, ...(opened.url ? { url: opened.url } : {}), pinDrift: opened.pinDrift, title: opened.payload?.document.title, version: opened.payload?.version };
      },
    },
    {
      name: 'porter_apps_rebase_pin',
      description: 'Re-make a drifted fork of a host component from its new baseline, replaying its edits. Only when the person asks.',
      inputSchema: { type: 'object', properties: { appId: APP_ID, slot: { type: 'string', minLength: 1, maxLength: 100 } }, required: ['appId', 'slot'], additionalProperties: false },
      risk: 'write',
      preview: (input) => `Rebase app ${(input as { appId: string }).appId} onto the new "${(input as { slot: string }).slot}" component`,
      async execute(input, context) {
        const { appId, slot } = input as { appId: string; slot: string };
        const result = await apps.rebasePin.execute({ principal: context.principal, appId, slot, signal: context.signal });
        return { ...brief(result.app), driftedPins: result.driftedPins };
      },
    },
    {
      name: 'porter_apps_data_list',
      description: "List records of one collection of an app's own data.",
      inputSchema: { type: 'object', properties: { appId: APP_ID, collection: COLLECTION }, required: ['appId', 'collection'], additionalProperties: false },
      risk: 'read',
      async execute(input, context) {
        const { appId, collection } = input as { appId: string; collection: string };
        return apps.listRecords.execute({ principal: context.principal, appId, collection, limit: 100 });
      },
    },
    {
      name: 'porter_apps_data_put',
      description: "Create or replace a record in one collection of an app's own data.",
      inputSchema: {
        type: 'object',
        properties: { appId: APP_ID, collection: COLLECTION, id: RECORD_ID, data: {} },
        required: ['appId', 'collection', 'data'],
        additionalProperties: false,
      },
      risk: 'write',
      preview: (input) => `Save a record in ${(input as { collection: string }).collection} of app ${(input as { appId: string }).appId}`,
      async execute(input, context) {
        const { appId, collection, id, data } = input as { appId: string; collection: string; id?: string; data: unknown };
        return apps.putRecord.execute({ principal: context.principal, appId, collection, data, ...(id ? { recordId: id } : {}) });
      },
    },
    {
      name: 'porter_apps_data_delete',
      description: "Delete a record from an app's own data.",
      inputSchema: { type: 'object', properties: { appId: APP_ID, collection: COLLECTION, id: RECORD_ID }, required: ['appId', 'collection', 'id'], additionalProperties: false },
      risk: 'destructive',
      preview: (input) => `Delete record ${(input as { id: string }).id} from ${(input as { collection: string }).collection} of app ${(input as { appId: string }).appId}`,
      async execute(input, context) {
        const { appId, collection, id } = input as { appId: string; collection: string; id: string };
        return apps.deleteRecords.execute({ principal: context.principal, appId, collection, recordId: id });
      },
    },
  ];
}

