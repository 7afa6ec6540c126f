import { NODE_TYPES, type AppDocument, type PropValue } from './app-document.js';
import type { PinDrift } from './fork-pin.js';
import { defined } from '../defined.js';

/**
 * What the renderer draws while an app is generated and once it is ready: the `data` of a
 * `data-porter-view` part. A node whose source has not arrived yet is `pending`: the renderer
 * shows a skeleton there and swaps the node in when a later update completes it.
 */
export interface AppView {
  readonly appId: string;
  readonly status: 'generating' | 'ready' | 'failed';
  readonly title: string | null;
  readonly ui: 'tree' | 'http';
  readonly root: string | null;
  readonly nodes: Readonly<Record<string, ViewNode>>;
  /** Why generation failed, when it did. */
  readonly message?: string;
  /** A fork whose host component changed since it was made: the renderer shows it (rebase is asked for). */
  readonly pinDrift?: PinDrift;
}

export interface ViewNode {
  readonly type: string | null;
  readonly props: Readonly<Record<string, PropValue>>;
  readonly children: ReadonlyArray<string>;
  readonly pending: boolean;
  readonly bind?: string;
  readonly action?: string;
}

/** The part id every update of one app's view carries, so a client replaces it in place. */
export function viewPartId(appId: string): string {
  return `porter-view:${appId}`;
}

/** The view of a finished, valid document: nothing pending; a drifted fork says so. */
export function viewOfDocument(appId: string, document: AppDocument, pinDrift: PinDrift | null = null): AppView {
  const nodes: Record<string, ViewNode> = {};
  for (const [id, node] of Object.entries(document.nodes)) {
    nodes[id] = {
      type: node.type,
      props: node.props ?? {},
      children: node.children ?? [],
      pending: false,
      ...defined({ bind: node.bind || undefined, action: node.action || undefined }),
    };
  }
  return {
    appId,
    status: 'ready',
    title: document.title,
    ui: document.ui,
    root: document.root,
    nodes,
    ...defined({ pinDrift: pinDrift || undefined }),
  };
}

/**
 * The view of a draft still streaming (any JSON-shaped value, possibly cut off). The last node in
 * the draft may still be arriving, so it stays pending; a child named before its node arrived is a
 * pending placeholder; a node without a known type is pending.
 */
export function viewOfDraft(appId: string, draft: unknown): AppView {
  const source = isObject(draft) ? draft : {};
  const nodes: Record<string, ViewNode> = {};
  const entries = isObject(source.nodes) ? Object.entries(source.nodes) : [];
  entries.forEach(([id, value], index) => {
    const node = isObject(value) ? value : {};
    const type = typeof node.type === 'string' && (NODE_TYPES as ReadonlyArray<string>).includes(node.type) ? node.type : null;
    nodes[id] = {
      type,
      props: isObject(node.props) ? scalarProps(node.props) : {},
      children: Array.isArray(node.children) ? node.children.filter((c): c is string => typeof c === 'string') : [],
      pending: type === null || index === entries.length - 1,
      ...defined({
        bind: typeof node.bind === 'string' ? node.bind : undefined,
        action: typeof node.action === 'string' ? node.action : undefined,
      }),
    };
  });
  const root = typeof source.root === 'string' ? source.root : null;
  for (const node of Object.values({ ...nodes })) {
    for (const child of node.children) if (!(child in nodes)) nodes[child] = { type: null, props: {}, children: [], pending: true };
  }
  if (root && !(root in nodes)) nodes[root] = { type: null, props: {}, children: [], pending: true };
  return {
    appId,
    status: 'generating',
    title: typeof source.title === 'string' ? source.title : null,
    ui: source.ui === 'http' ? 'http' : 'tree',
    root,
    nodes,
  };
}

/** The last view, marked failed: what was drawn stays, with the reason. */
export function failedView(view: AppView, message: string): AppView {
  return { ...view, status: 'failed', message };
}

function scalarProps(props: Record<string, unknown>): Record<string, PropValue> {
  const out: Record<string, PropValue> = {};
  for (const [key, value] of Object.entries(props)) {
    if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
      out[key] = value;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
