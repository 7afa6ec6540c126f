import type { AppAction, AppDocument, AppNode, DataBinding } from '../../domain/apps/app-document.js';
import type { ActionTool, AppGenerator, CreateRequest, EditRequest } from '../../ports/app-generator.js';
import { defined } from '../../domain/defined.js';

const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'of',
  'for',
  'to',
  'in',
  'on',
  'with',
  'my',
  'our',
  'me',
  'i',
  'app',
  'make',
  'build',
  'create',
  'that',
  'this',
  'it',
  'is',
  'be',
  'please',
  'some',
  'which',
  'where',
  'can',
  'add',
]);
const LIST_WORDS = new Set([
  'list',
  'todo',
  'todos',
  'tasks',
  'task',
  'notes',
  'items',
  'tracker',
  'log',
  'inventory',
  'groceries',
  'checklist',
]);
const MAX_SECTIONS = 6;

type MutableDocument = { -readonly [K in keyof AppDocument]: AppDocument[K] } & {
  nodes: Record<string, AppNode>;
  data: Record<string, DataBinding>;
  actions: Record<string, AppAction>;
};

/**
 * App generation with the scripted model: a deterministic tree from the prompt's words (a heading,
 * a card per distinct word, a record-backed list when the words ask for one), streamed node by
 * node so the view shows skeletons filling in. Edits are deterministic too:
 * - `rename to <title>` / `title <title>` retitles the app;
 * - a server instruction adds `functions/<name>.js` and a button calling `fn:<name>` (the name is
 *   the word after "function"/"endpoint", else `run`); backticked code after `server.js` replaces
 *   the server itself (how the development host shows a broken server);
 * - `tool <name>` naming one of the host's tools adds a form that runs it (a field per input the
 *   tool takes, or just a button when it takes none);
 * - anything else appends a text node saying the instruction.
 * It reports usage as the scripted model does: a word of the request or a node written is a token.
 */
export class DeterministicAppGenerator implements AppGenerator {
  /** The host tools an edit may wire to a form. */
  constructor(private readonly tools: ReadonlyArray<ActionTool> = []) {}

  async *create({ prompt, signal, spend }: CreateRequest): AsyncIterable<unknown> {
    const words = keywords(prompt);
    const title = titleOf(prompt);
    const doc: MutableDocument = {
      format: 1,
      title,
      ui: 'tree',
      scope: 'owner',
      root: 'root',
      nodes: {},
      data: {},
      actions: {},
      server: null,
      egress: null,
    };
    const order: Array<[string, AppNode]> = [['title', { type: 'heading', props: { text: title } }]];
    if (words.some((w) => LIST_WORDS.has(w))) {
      doc.data.items = { collection: 'items' };
      doc.actions.add = { kind: 'put-record', collection: 'items' };
      order.push(['new-item', { type: 'input', props: { placeholder: 'Add an item', name: 'text' } }]);
      order.push(['add-item', { type: 'button', props: { label: 'Add' }, action: 'add' }]);
      order.push(['items', { type: 'list', bind: 'items', props: { empty: 'Nothing yet' } }]);
    }
    for (const word of words.filter((w) => !LIST_WORDS.has(w)).slice(0, MAX_SECTIONS)) {
      order.push([`${word}-card`, { type: 'card', props: { title: capitalise(word) }, children: [`${word}-text`] }]);
    }
    const topLevel = order.map(([id]) => id);
    for (const word of words.filter((w) => !LIST_WORDS.has(w)).slice(0, MAX_SECTIONS))
      order.push([`${word}-text`, { type: 'text', props: { text: `${capitalise(word)} goes here.` } }]);

    // Stream: the frame, the root naming children not yet arrived, then one node at a time.
    yield snapshot({ ...doc, nodes: {} });
    doc.nodes.root = { type: 'stack', children: topLevel };
    yield snapshot(doc);
    for (const [id, node] of order) {
      if (signal.aborted) throw new Error('generation was stopped');
      doc.nodes[id] = node;
      yield snapshot(doc);
    }
    await spend?.(tokensOf(prompt, doc));
  }

  async *edit({ document, instruction, kind, spend }: EditRequest): AsyncIterable<unknown> {
    const doc = clone(document);
    const rename = /^\s*(?:rename(?:\s+it)?\s+to|title)\s+(.+)$/i.exec(instruction);
    if (rename) {
      doc.title = rename[1]!.trim().slice(0, 200);
      if (doc.nodes.title?.type === 'heading')
        doc.nodes.title = { ...doc.nodes.title, props: { ...doc.nodes.title.props, text: doc.title } };
    } else if (this.toolNamed(instruction)) {
      addToolForm(doc, this.toolNamed(instruction)!);
    } else if (kind === 'server') {
      const code = /server\.js[^`]*`([^`]+)`/i.exec(instruction);
      if (code) {
        doc.server = { files: { ...(doc.server?.files ?? {}), 'server.js': code[1]! } };
      } else {
        const name = fnName(instruction);
        doc.server = { files: { ...(doc.server?.files ?? {}), [`functions/${name}.js`]: functionModule(name, instruction) } };
        doc.actions[`call-${name}`] = { kind: 'call', target: `fn:${name}` };
        const id = uniqueId(doc, `${name}-button`);
        doc.nodes[id] = { type: 'button', props: { label: capitalise(name) }, action: `call-${name}` };
        appendToRoot(doc, id);
      }
    } else {
      const id = uniqueId(doc, 'note');
      doc.nodes[id] = { type: 'text', props: { text: instruction.slice(0, 2000) } };
      appendToRoot(doc, id);
    }
    await spend?.(tokensOf(instruction, doc));
    yield doc;
  }

  private toolNamed(instruction: string): ActionTool | undefined {
    const named = /\btool\s+([A-Za-z][A-Za-z0-9_-]{0,63})/i.exec(instruction)?.[1];
    return named ? this.tools.find((tool) => tool.name === named) : undefined;
  }
}

/** A card that runs `tool`: a form with a field per input it takes, or a lone button. */
function addToolForm(doc: MutableDocument, tool: ActionTool): void {
  const action = uniqueKey(doc.actions, `run-${tool.name}`.slice(0, 64));
  doc.actions[action] = { kind: 'tool', tool: tool.name };
  const label = capitalise(tool.name.replace(/[_-]+/g, ' '));
  const fields = inputFieldsOf(tool);
  const id = uniqueId(doc, `${tool.name}-form`.slice(0, 58));
  if (fields.length === 0) {
    doc.nodes[id] = { type: 'button', props: { label }, action };
  } else {
    const children = fields.map(([name, type]) => {
      const field = uniqueId(doc, `${id}-${name}`.slice(0, 58));
      doc.nodes[field] = {
        type: 'input',
        props: { name, label: capitalise(name), ...defined({ inputType: type === 'number' || type === 'integer' ? 'number' : undefined }) },
      };
      return field;
    });
    const submit = uniqueId(doc, `${id}-submit`);
    doc.nodes[submit] = { type: 'button', props: { label } };
    doc.nodes[id] = { type: 'form', props: { title: tool.description.slice(0, 200) }, action, children: [...children, submit] };
  }
  appendToRoot(doc, id);
}

/** The tool's typed-in inputs: string and number properties, in schema order. */
function inputFieldsOf(tool: ActionTool): Array<[string, string]> {
  const properties =
    typeof tool.inputSchema.properties === 'object' && tool.inputSchema.properties !== null
      ? (tool.inputSchema.properties as Record<string, { type?: unknown }>)
      : {};
  return Object.entries(properties)
    .filter(
      ([name, property]) => /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(name) && ['string', 'number', 'integer'].includes(String(property?.type)),
    )
    .map(([name, property]) => [name, String(property.type)]);
}

function uniqueKey(taken: Record<string, unknown>, base: string): string {
  if (!(base in taken)) return base;
  let n = 2;
  while (`${base}-${n}` in taken) n += 1;
  return `${base}-${n}`;
}

/**
 * What a generation "spent", as the scripted model reports usage so `limits.tokens` can be tried
 * offline: a word of the request is a token, and so is a node of the document written.
 */
function tokensOf(request: string, doc: MutableDocument): number {
  return (request.match(/\S+/g) ?? []).length + Object.keys(doc.nodes).length;
}

function keywords(prompt: string): string[] {
  const seen = new Set<string>();
  for (const word of prompt.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    if (!STOP_WORDS.has(word) && word.length > 1 && word.length <= 40) seen.add(word);
  return [...seen];
}

function titleOf(prompt: string): string {
  const text = prompt.replace(/\s+/g, ' ').trim().slice(0, 80) || 'Untitled app';
  return capitalise(text);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fnName(instruction: string): string {
  const named = /\b(?:function|endpoint|fn)\s+(?:called\s+|named\s+)?([a-z][a-z0-9_]{0,40})/i.exec(instruction);
  const name = named?.[1]?.toLowerCase();
  return name && !STOP_WORDS.has(name) ? name : 'run';
}

function functionModule(name: string, instruction: string): string {
  return `'use strict';
// ${instruction.replace(/\s+/g, ' ').slice(0, 200)}
module.exports = async function ${name}(input) {
  return { ok: true, fn: ${JSON.stringify(name)}, input };
};
`;
}

function appendToRoot(doc: MutableDocument, id: string): void {
  const root = doc.nodes[doc.root]!;
  doc.nodes[doc.root] = { ...root, children: [...(root.children ?? []), id] };
}

function uniqueId(doc: MutableDocument, base: string): string {
  if (!(base in doc.nodes)) return base;
  let n = 2;
  while (`${base}-${n}` in doc.nodes) n += 1;
  return `${base}-${n}`;
}

function clone(document: AppDocument): MutableDocument {
  return JSON.parse(JSON.stringify(document)) as MutableDocument;
}

function snapshot(doc: MutableDocument): MutableDocument {
  return { ...doc, nodes: { ...doc.nodes }, data: { ...doc.data }, actions: { ...doc.actions } };
}
