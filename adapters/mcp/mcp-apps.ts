import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type CallToolResult,
  type ClientCapabilities,
  type ListResourcesResult,
  type ReadResourceResult,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/server';
import type { DoorCaller } from '../../domain/door/door-caller.js';
import type { DoorAppsUseCases, DoorAppView } from '../../ports/use-cases/door.js';
import { defined } from '../../domain/defined.js';

/** The MCP Apps extension (SEP-1865), as clients and servers name it in their capabilities. */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** An MCP Apps view: an HTML5 document for the host to render in its sandbox. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The view a tool links (static, as tool metadata is): it draws whichever app the tool's result hands it. */
export const APP_TEMPLATE_URI = 'ui://porter/app';
const APP_URI = /^ui:\/\/porter\/apps\/(app_[0-9A-Za-z_-]{10,64})$/;

/** The app's own view: the same page with the app and its records inside. */
export function appResourceUri(appId: string): string {
  return `ui://porter/apps/${appId}`;
}

/** Draws an app as an MCP Apps view; without one, the template that draws the app a tool result hands it. */
export type AppPage = (view: DoorAppView | null) => string;

/** What the door needs to offer apps: the use cases and how a page is drawn. */
export interface DoorAppsOffer {
  readonly apps: DoorAppsUseCases;
  readonly page: AppPage;
}

/**
 * Whether the client declared MCP Apps with HTML views, as the extension has servers check
 * (`extensions["io.modelcontextprotocol/ui"].mimeTypes` naming the profile).
 */
export function declaresMcpApps(capabilities: ClientCapabilities | undefined): boolean {
  const settings = capabilities?.extensions?.[MCP_APPS_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(settings?.mimeTypes) && settings.mimeTypes.includes(MCP_APP_MIME_TYPE);
}

/**
 * The SDK's `Server`, advertising resources and the extension only to a client that declared MCP
 * Apps: on a 2025-11-25 session from its `initialize`, on 2026-07-28 from the request's `_meta`
 * (the SDK sets the client's capabilities from either before it answers). Every other client sees
 * the door's capabilities as before.
 */
export class AppsAwareServer extends Server {
  override getCapabilities(): ServerCapabilities {
    const { resources, ...others } = super.getCapabilities();
    // The one accessor that reads both eras here (the per-request one lives in each handler's context).
    if (!declaresMcpApps(this.getClientCapabilities())) return others;
    return { ...others, ...defined({ resources }), extensions: { ...others.extensions, [MCP_APPS_EXTENSION]: {} } };
  }
}

/** How each app's view asks the host to frame it; nothing is fetched from outside the page. */
const VIEW_META = { ui: { prefersBorder: true, csp: { connectDomains: [], resourceDomains: [] } } };

/**
 * What a client that did not declare MCP Apps is answered on `resources/*`: what the door answered
 * everyone before it offered apps (the SDK's own answer to a method it does not serve).
 */
export function notOffered(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
}

/** `resources/list`: the person's apps as views, for a client that declared MCP Apps. */
export async function listAppResources(offer: DoorAppsOffer, caller: DoorCaller, declared: boolean): Promise<ListResourcesResult> {
  if (!declared) throw notOffered();
  const apps = await offer.apps.listApps.execute({ caller });
  return {
    resources: apps.map((app) => ({
      uri: appResourceUri(app.id),
      name: app.title,
      title: app.title,
      description: `The app "${app.title}" (version ${app.version}), drawn with its current data.`,
      mimeType: MCP_APP_MIME_TYPE,
      _meta: VIEW_META,
    })),
  };
}

/**
 * `resources/read`: the template, or one app the caller may open, with its records as they stand.
 * Anything else — another person's app, an app that is gone, a URI that names none — is the same
 * not-found answer.
 */
export async function readAppResource(
  offer: DoorAppsOffer,
  caller: DoorCaller,
  uri: string,
  declared: boolean,
): Promise<ReadResourceResult> {
  if (!declared) throw notOffered();
  if (uri === APP_TEMPLATE_URI) return { contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: offer.page(null), _meta: VIEW_META }] };
  const appId = APP_URI.exec(uri)?.[1];
  const view = appId ? await offer.apps.viewApp.execute({ caller, appId }) : null;
  if (!view) throw new ResourceNotFoundError(uri);
  return { contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: offer.page(view), _meta: VIEW_META }] };
}

/**
 * The tool that opens an app, linked to the view that draws it (visible to the model and to apps);
 * also under the flat key older hosts read, as the extension's own server helpers do.
 */
export function withAppView(tool: Tool, offer: DoorAppsOffer): Tool {
  if (tool.name !== offer.apps.openTool) return tool;
  const ui = { resourceUri: APP_TEMPLATE_URI, visibility: ['model', 'app'] };
  return { ...tool, _meta: { ...tool._meta, ui, 'ui/resourceUri': APP_TEMPLATE_URI } };
}

/**
 * An `porter_apps_open` result, for a host that renders apps: the app to draw and its records
 * (`structuredContent.appView`, which the view reads from the tool result the host hands it), and
 * a link to the app's own view. The tool itself ran through the guard; this reads what the caller
 * may open, as the resource read does.
 */
export async function showingTheApp(
  offer: DoorAppsOffer,
  caller: DoorCaller,
  input: unknown,
  result: CallToolResult,
): Promise<CallToolResult> {
  const appId = typeof input === 'object' && input !== null ? (input as { appId?: unknown }).appId : undefined;
  if (result.isError || typeof appId !== 'string') return result;
  const view = await offer.apps.viewApp.execute({ caller, appId });
  if (!view) return result;
  const uri = appResourceUri(view.app.id);
  return {
    ...result,
    content: [
      ...result.content,
      { type: 'resource_link', uri, name: view.app.title, mimeType: MCP_APP_MIME_TYPE, description: `The app "${view.app.title}"` },
    ],
    structuredContent: { ...(result.structuredContent as Record<string, unknown> | undefined), appView: view },
  };
}
