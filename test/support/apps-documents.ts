import type { AppDocument } from '../../domain/apps/app-document.js';

/** A small valid document: a heading and a record-backed list. */
export const tinyDocument = (): AppDocument => ({
  format: 1,
  title: 'Groceries',
  ui: 'tree',
  scope: 'owner',
  root: 'root',
  nodes: {
    root: { type: 'stack', children: ['title', 'items'] },
    title: { type: 'heading', props: { text: 'Groceries' } },
    items: { type: 'list', bind: 'items' },
  },
  data: { items: { collection: 'items' } },
  actions: {},
  server: null,
  egress: null,
});

/** A valid tree of `count` nodes: a root stack of cards, each holding text nodes. */
export function largeDocument(count: number): AppDocument {
  const nodes: Record<string, AppDocument['nodes'][string]> = {};
  const cards: string[] = [];
  let made = 1;
  for (let c = 0; made < count; c++) {
    const card = `card-${c}`;
    const children: string[] = [];
    nodes[card] = { type: 'card', props: { title: `Section ${c}` }, children };
    cards.push(card);
    made += 1;
    for (let t = 0; t < 9 && made < count; t++) {
      const id = `text-${c}-${t}`;
      nodes[id] = { type: 'text', props: { text: `Line ${t} of section ${c}` } };
      children.push(id);
      made += 1;
    }
  }
  nodes.root = { type: 'stack', children: cards };
  return {
    format: 1,
    title: `Large app of ${count} nodes`,
    ui: 'tree',
    scope: 'owner',
    root: 'root',
    nodes,
    data: {},
    actions: {},
    server: null,
    egress: null,
  };
}

/**
 * A notes board whose actions run host tools: a form adding a note (its `text` field typed in),
 * a button listing them, and a button clearing them with a fixed input.
 */
export const toolDocument = (tools: { add?: string; list?: string; clear?: string } = {}): AppDocument => ({
  format: 1,
  title: 'Notes board',
  ui: 'tree',
  scope: 'owner',
  root: 'root',
  nodes: {
    root: { type: 'stack', children: ['title', 'add-form', 'list-button', 'clear-button'] },
    title: { type: 'heading', props: { text: 'Notes board' } },
    'add-form': { type: 'form', props: { title: 'Add a note' }, action: 'add-note', children: ['note-text', 'add-submit'] },
    'note-text': { type: 'input', props: { name: 'text', label: 'Note' } },
    'add-submit': { type: 'button', props: { label: 'Add note' } },
    'list-button': { type: 'button', props: { label: 'Show notes' }, action: 'list-notes' },
    'clear-button': { type: 'button', props: { label: 'Clear notes' }, action: 'clear-notes' },
  },
  data: {},
  actions: {
    'add-note': { kind: 'tool', tool: tools.add ?? 'notes_add' },
    'list-notes': { kind: 'tool', tool: tools.list ?? 'notes_list' },
    'clear-notes': { kind: 'tool', tool: tools.clear ?? 'notes_clear', input: { confirm: true } },
  },
  server: null,
  egress: null,
});
