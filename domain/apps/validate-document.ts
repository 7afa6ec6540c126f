import {
  APP_FORMAT,
  COLLECTION,
  DOCUMENT_LIMITS,
  DOMAIN_NAME,
  FN_TARGET,
  KEY,
  NODE_ID,
  NODE_TYPES,
  RESERVED_TOOL_PREFIX,
  SERVER_PATH,
  TOOL_NAME,
  type AppAction,
  type AppDocument,
  type AppNode,
  type DataBinding,
  type PropValue,
} from './app-document.js';

export interface DocumentIssue {
  readonly path: string;
  readonly message: string;
}

export type DocumentCheck =
  { readonly ok: true; readonly document: AppDocument } | { readonly ok: false; readonly issues: ReadonlyArray<DocumentIssue> };

type Json = Record<string, unknown>;
const TOP_KEYS = ['format', 'title', 'ui', 'scope', 'root', 'nodes', 'data', 'actions', 'server', 'egress'];
const NODE_KEYS = ['type', 'props', 'children', 'bind', 'action'];
/** Stop listing after this many: a broken document of 5,000 nodes should not answer with 5,000 lines. */
const MAX_ISSUES = 50;

/**
 * Checks anything (a model's output, an import, a host's pin file) against the AppDocument rules:
 * strict keys, known node types, a single tree from `root` (every node reachable, one parent each,
 * no cycles), bindings and actions that exist, safe server paths, and the size limits. Returns a
 * normalised copy (absent optional parts filled with their empty value) or every issue found.
 */
export function validateDocument(input: unknown): DocumentCheck {
  const issues: DocumentIssue[] = [];
  const issue = (path: string, message: string) => {
    if (issues.length < MAX_ISSUES) issues.push({ path, message });
  };
  if (!isObject(input)) return { ok: false, issues: [{ path: '', message: 'must be an object' }] };
  for (const key of Object.keys(input)) if (!TOP_KEYS.includes(key)) issue(key, 'is not a document field');

  if (input.format !== APP_FORMAT) issue('format', `must be ${APP_FORMAT}`);
  if (typeof input.title !== 'string' || input.title.trim().length === 0 || input.title.length > DOCUMENT_LIMITS.maxTitle) {
    issue('title', `must be 1..${DOCUMENT_LIMITS.maxTitle} characters`);
  }
  const ui = input.ui ?? 'tree';
  if (ui !== 'tree' && ui !== 'http') issue('ui', 'must be "tree" or "http"');
  const scope = input.scope ?? 'owner';
  if (scope !== 'owner' && scope !== 'shared') issue('scope', 'must be "owner" or "shared"');

  const data = checkData(input.data ?? {}, issue);
  const actions = checkActions(input.actions ?? {}, issue);
  const nodes = checkNodes(input.nodes, data, actions, issue);
  if (nodes) checkTree(input.root, nodes, issue);
  const server = checkServer(input.server ?? null, issue);
  const egress = checkEgress(input.egress ?? null, issue);

  if (issues.length > 0) return { ok: false, issues };
  const document: AppDocument = {
    format: APP_FORMAT,
    title: (input.title as string).trim(),
    ui: ui as AppDocument['ui'],
    scope: scope as AppDocument['scope'],
    root: input.root as string,
    nodes: nodes!,
    data: data ?? {},
    actions: actions ?? {},
    server,
    egress,
  };
  const bytes = utf8Length(JSON.stringify(document));
  if (bytes > DOCUMENT_LIMITS.maxBytes)
    return { ok: false, issues: [{ path: '', message: `is ${bytes} bytes; at most ${DOCUMENT_LIMITS.maxBytes} are allowed` }] };
  return { ok: true, document };
}

function checkData(input: unknown, issue: (path: string, message: string) => void): Record<string, DataBinding> | null {
  if (!isObject(input)) return (issue('data', 'must be an object of bindings'), null);
  const entries = Object.entries(input);
  if (entries.length > DOCUMENT_LIMITS.maxBindings) issue('data', `has ${entries.length} bindings; at most ${DOCUMENT_LIMITS.maxBindings}`);
  const out: Record<string, DataBinding> = {};
  for (const [key, value] of entries) {
    if (!KEY.test(key)) issue(`data.${key}`, 'is not a valid binding name');
    if (
      !isObject(value) ||
      Object.keys(value).some((k) => k !== 'collection') ||
      typeof value.collection !== 'string' ||
      !COLLECTION.test(value.collection)
    ) {
      issue(`data.${key}`, 'must be { collection } with a collection name of letters, digits, _ or -');
      continue;
    }
    out[key] = { collection: value.collection };
  }
  return out;
}

function checkActions(input: unknown, issue: (path: string, message: string) => void): Record<string, AppAction> | null {
  if (!isObject(input)) return (issue('actions', 'must be an object of actions'), null);
  const entries = Object.entries(input);
  if (entries.length > DOCUMENT_LIMITS.maxActions) issue('actions', `has ${entries.length} actions; at most ${DOCUMENT_LIMITS.maxActions}`);
  const out: Record<string, AppAction> = {};
  for (const [key, path, value] of namedObjects(entries, 'actions', KEY, 'is not a valid action name', 'must be an action object', issue)) {
    if (
      (value.kind === 'put-record' || value.kind === 'delete-record') &&
      onlyKeys(value, ['kind', 'collection']) &&
      typeof value.collection === 'string' &&
      COLLECTION.test(value.collection)
    ) {
      out[key] = { kind: value.kind, collection: value.collection };
    } else if (
      value.kind === 'call' &&
      onlyKeys(value, ['kind', 'target']) &&
      typeof value.target === 'string' &&
      FN_TARGET.test(value.target)
    ) {
      out[key] = { kind: 'call', target: value.target };
    } else if (value.kind === 'tool' && onlyKeys(value, ['kind', 'tool', 'input'])) {
      const action = checkToolAction(value, path, issue);
      if (action) out[key] = action;
    } else {
      issue(
        path,
        'must be { kind: "put-record"|"delete-record", collection }, { kind: "call", target: "fn:<name>" } or { kind: "tool", tool, input? }',
      );
    }
  }
  return out;
}

/** A host tool by name (never one of Porter's own), with optional fixed scalar input values (the props limits apply). */
function checkToolAction(value: Json, path: string, issue: (path: string, message: string) => void): AppAction | null {
  const tool = value.tool;
  if (typeof tool !== 'string' || !TOOL_NAME.test(tool))
    return (issue(`${path}.tool`, 'must be a tool name: a letter, then up to 63 letters, digits, _ or -'), null);
  if (RESERVED_TOOL_PREFIX.test(tool))
    return (issue(`${path}.tool`, "names one of Porter's own tools; an app may run only the host's tools"), null);
  if (value.input === undefined) return { kind: 'tool', tool };
  const input = checkProps(value.input, `${path}.input`, issue);
  return input ? { kind: 'tool', tool, input } : null;
}

function checkNodes(
  input: unknown,
  data: Record<string, DataBinding> | null,
  actions: Record<string, AppAction> | null,
  issue: (path: string, message: string) => void,
): Record<string, AppNode> | null {
  if (!isObject(input)) return (issue('nodes', 'must be an object of nodes keyed by id'), null);
  const entries = Object.entries(input);
  if (entries.length === 0) return (issue('nodes', 'must hold at least the root node'), null);
  if (entries.length > DOCUMENT_LIMITS.maxNodes)
    return (issue('nodes', `has ${entries.length} nodes; at most ${DOCUMENT_LIMITS.maxNodes}`), null);
  const out: Record<string, AppNode> = {};
  const badId = 'has an id that is not 1..64 letters, digits, _ or -';
  for (const [id, path, value] of namedObjects(entries, 'nodes', NODE_ID, badId, 'must be a node object', issue)) {
    for (const key of Object.keys(value)) if (!NODE_KEYS.includes(key)) issue(`${path}.${key}`, 'is not a node field');
    if (!(NODE_TYPES as ReadonlyArray<unknown>).includes(value.type)) issue(`${path}.type`, `must be one of ${NODE_TYPES.join(', ')}`);
    const node: { -readonly [K in keyof AppNode]: AppNode[K] } = { type: value.type as AppNode['type'] };
    if (value.props !== undefined) {
      const props = checkProps(value.props, `${path}.props`, issue);
      if (props) node.props = props;
    }
    if (value.children !== undefined) {
      if (!Array.isArray(value.children) || value.children.some((c) => typeof c !== 'string'))
        issue(`${path}.children`, 'must be an array of node ids');
      else if (value.children.length > DOCUMENT_LIMITS.maxChildren)
        issue(`${path}.children`, `has more than ${DOCUMENT_LIMITS.maxChildren} children`);
      else node.children = [...(value.children as string[])];
    }
    if (value.bind !== undefined) {
      if (typeof value.bind !== 'string' || (data && !(value.bind in data))) issue(`${path}.bind`, 'must name a binding in data');
      else node.bind = value.bind;
    }
    if (value.action !== undefined) {
      if (typeof value.action !== 'string' || (actions && !(value.action in actions)))
        issue(`${path}.action`, 'must name an action in actions');
      else node.action = value.action;
    }
    out[id] = node;
  }
  return out;
}

function checkProps(input: unknown, path: string, issue: (path: string, message: string) => void): Record<string, PropValue> | null {
  if (!isObject(input)) return (issue(path, 'must be an object of strings, numbers, booleans or null'), null);
  const entries = Object.entries(input);
  if (entries.length > DOCUMENT_LIMITS.maxPropsPerNode) issue(path, `has more than ${DOCUMENT_LIMITS.maxPropsPerNode} props`);
  const out: Record<string, PropValue> = {};
  for (const [key, value] of entries) {
    if (!KEY.test(key)) issue(`${path}.${key}`, 'is not a valid prop name');
    const scalar =
      value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'string';
    if (!scalar) issue(`${path}.${key}`, 'must be a string, a finite number, a boolean or null');
    else if (typeof value === 'string' && value.length > DOCUMENT_LIMITS.maxPropChars)
      issue(`${path}.${key}`, `is longer than ${DOCUMENT_LIMITS.maxPropChars} characters`);
    else out[key] = value as PropValue;
  }
  return out;
}

/** One tree: the root has no parent, every other node exactly one, all reachable, depth bounded. */
function checkTree(root: unknown, nodes: Record<string, AppNode>, issue: (path: string, message: string) => void): void {
  if (typeof root !== 'string' || !(root in nodes)) return issue('root', 'must be the id of a node in nodes');
  const parent = new Map<string, string>();
  for (const [id, node] of Object.entries(nodes)) {
    for (const child of node.children ?? []) {
      if (!(child in nodes)) issue(`nodes.${id}.children`, `names "${child}", which is not a node`);
      else if (child === root) issue(`nodes.${id}.children`, 'names the root, which cannot have a parent');
      else if (parent.has(child)) issue(`nodes.${id}.children`, `names "${child}", which already belongs to "${parent.get(child)}"`);
      else parent.set(child, id);
    }
  }
  const depth = new Map<string, number>([[root, 0]]);
  const stack = [root];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const level = depth.get(id)!;
    if (level > DOCUMENT_LIMITS.maxDepth) return issue(`nodes.${id}`, `is nested deeper than ${DOCUMENT_LIMITS.maxDepth} levels`);
    for (const child of nodes[id]!.children ?? []) {
      if (!(child in nodes) || depth.has(child) || parent.get(child) !== id) continue;
      depth.set(child, level + 1);
      stack.push(child);
    }
  }
  for (const id of Object.keys(nodes)) if (!depth.has(id)) issue(`nodes.${id}`, 'is not reachable from the root');
}

function checkServer(input: unknown, issue: (path: string, message: string) => void): AppDocument['server'] {
  if (input === null) return null;
  if (!isObject(input) || !onlyKeys(input, ['files']) || !isObject(input.files))
    return (issue('server', 'must be null or { files: { <path>: <text> } }'), null);
  const entries = Object.entries(input.files);
  if (entries.length > DOCUMENT_LIMITS.maxServerFiles)
    issue('server.files', `has ${entries.length} files; at most ${DOCUMENT_LIMITS.maxServerFiles}`);
  const files: Record<string, string> = {};
  for (const [path, content] of entries) {
    if (!SERVER_PATH.test(path) || path.length > 200)
      issue(`server.files.${path}`, 'must be a relative path of safe segments (no .., no leading /)');
    else if (typeof content !== 'string') issue(`server.files.${path}`, 'must be text');
    else if (utf8Length(content) > DOCUMENT_LIMITS.maxServerFileBytes)
      issue(`server.files.${path}`, `is larger than ${DOCUMENT_LIMITS.maxServerFileBytes} bytes`);
    else files[path] = content;
  }
  return entries.length === 0 ? null : { files };
}

function checkEgress(input: unknown, issue: (path: string, message: string) => void): AppDocument['egress'] {
  if (input === null) return null;
  if (!isObject(input) || !onlyKeys(input, ['allowDomains']) || !Array.isArray(input.allowDomains))
    return (issue('egress', 'must be null or { allowDomains: [...] }'), null);
  if (input.allowDomains.length > DOCUMENT_LIMITS.maxAllowDomains)
    issue('egress.allowDomains', `lists more than ${DOCUMENT_LIMITS.maxAllowDomains} domains`);
  const domains: string[] = [];
  for (const domain of input.allowDomains) {
    if (typeof domain !== 'string' || !DOMAIN_NAME.test(domain))
      issue('egress.allowDomains', `"${String(domain)}" is not a domain name (raw IPs are never allowed)`);
    else domains.push(domain);
  }
  return { allowDomains: domains };
}

/**
 * The entries of a section keyed by name (actions, nodes) whose values are objects, each with its
 * path: a name that breaks `name` is an issue, and a value that is no object is one and is skipped.
 */
function* namedObjects(
  entries: ReadonlyArray<[string, unknown]>,
  section: string,
  name: RegExp,
  badName: string,
  notObject: string,
  issue: (path: string, message: string) => void,
): Generator<[key: string, path: string, value: Json]> {
  for (const [key, value] of entries) {
    const path = `${section}.${key}`;
    if (!name.test(key)) issue(path, badName);
    if (isObject(value)) yield [key, path, value];
    else issue(path, notObject);
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Json, keys: ReadonlyArray<string>): boolean {
  return Object.keys(value).every((key) => keys.includes(key));
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
