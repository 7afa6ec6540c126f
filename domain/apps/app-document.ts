/**
 * The AppDocument: a generated app as a tree of nodes the shipped renderer draws, with data
 * bindings to the app's own records and actions. `ui` is `tree` until the app graduates to a
 * served app (`http`), whose own server answers `POST /fn/<name>` for `fn:<name>` references.
 */
export const APP_FORMAT = 1 as const;

export const DOCUMENT_LIMITS = {
  maxNodes: 5_000,
  maxDepth: 64,
  /** The whole document as JSON, server files included. */
  maxBytes: 2 * 1024 * 1024,
  maxTitle: 200,
  maxPropChars: 10_000,
  maxPropsPerNode: 32,
  maxChildren: 1_000,
  maxBindings: 100,
  maxActions: 200,
  maxServerFiles: 64,
  maxServerFileBytes: 512 * 1024,
  maxAllowDomains: 50,
} as const;

export const NODE_TYPES = [
  'stack',
  'row',
  'grid',
  'card',
  'heading',
  'text',
  'button',
  'input',
  'textarea',
  'checkbox',
  'select',
  'list',
  'table',
  'image',
  'link',
  'divider',
  'form',
  'chart',
] as const;

export type NodeType = (typeof NODE_TYPES)[number];
export type PropValue = string | number | boolean | null;
export type AppUi = 'tree' | 'http';
/** `owner`: only its owner sees it; `shared`: any signed-in person may open it and read its records. */
export type AppScope = 'owner' | 'shared';

export interface AppNode {
  readonly type: NodeType;
  readonly props?: Readonly<Record<string, PropValue>>;
  /** Ids of child nodes, in order. */
  readonly children?: ReadonlyArray<string>;
  /** A key of `data`: the node shows that binding's records. */
  readonly bind?: string;
  /** A key of `actions`: what the node does when used. */
  readonly action?: string;
}

/** A binding to one of the app's own record collections. */
export interface DataBinding {
  readonly collection: string;
}

export type AppAction =
  | { readonly kind: 'put-record'; readonly collection: string }
  | { readonly kind: 'delete-record'; readonly collection: string }
  /** `fn:<name>`: needs a served app; it becomes `POST /fn/<name>` on the app's own server. */
  | { readonly kind: 'call'; readonly target: string }
  /**
   * Runs one of the host's tools through the guard (venue `app`), with the values the page sends
   * (a form's fields) under the fixed `input` the document gives; the document's values win.
   */
  | { readonly kind: 'tool'; readonly tool: string; readonly input?: Readonly<Record<string, PropValue>> };

/** Server code, by path relative to `/app` (`server.js`, `start.sh`, `functions/<name>.js`). */
export interface ServerPart {
  readonly files: Readonly<Record<string, string>>;
}

export interface AppEgress {
  readonly allowDomains: ReadonlyArray<string>;
}

export interface AppDocument {
  readonly format: typeof APP_FORMAT;
  readonly title: string;
  readonly ui: AppUi;
  readonly scope: AppScope;
  readonly root: string;
  readonly nodes: Readonly<Record<string, AppNode>>;
  readonly data: Readonly<Record<string, DataBinding>>;
  readonly actions: Readonly<Record<string, AppAction>>;
  readonly server: ServerPart | null;
  /** With a policy, the served app reaches only these domains and never raw IPs. */
  readonly egress: AppEgress | null;
}

export const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const COLLECTION = /^[A-Za-z0-9_-]{1,64}$/;
/** An app record's id (the client may choose it). */
export const RECORD_KEY = /^[A-Za-z0-9_-]{1,128}$/;
/** An app blob's key. */
export const BLOB_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** A blob's media type, `type/subtype` (stored in lower case). */
export const BLOB_CONTENT_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
export const FN_TARGET = /^fn:([A-Za-z][A-Za-z0-9_-]{0,63})$/;
/** A relative path of safe segments: no `..`, no leading slash, no backslash. */
export const SERVER_PATH = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;
/** A host tool's name, as the tool registry accepts it. */
export const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** Porter's own tools (`porter_apps_*`…) are the agent's; an app runs only the host's tools. */
export const RESERVED_TOOL_PREFIX = /^porter_/i;
export const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The names of the server functions the document calls (`fn:<name>` targets), sorted. */
export function fnRefs(document: Pick<AppDocument, 'actions'>): string[] {
  const names = new Set<string>();
  for (const action of Object.values(document.actions)) {
    if (action.kind !== 'call') continue;
    const match = FN_TARGET.exec(action.target);
    if (match) names.add(match[1]!);
  }
  return [...names].sort();
}

/** The names of the host tools the document's actions run, sorted. */
export function toolRefs(document: Pick<AppDocument, 'actions'>): string[] {
  const names = new Set<string>();
  for (const action of Object.values(document.actions)) if (action.kind === 'tool') names.add(action.tool);
  return [...names].sort();
}

export function nodeCount(document: Pick<AppDocument, 'nodes'>): number {
  return Object.keys(document.nodes).length;
}
