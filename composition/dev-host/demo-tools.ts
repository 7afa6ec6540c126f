import type { ToolDefinition } from '../../ports/tool-registry.js';

/**
 * The development host's own tools, one of every risk, as a host would register them. Notes live
 * in this process, per signed-in subject.
 */
export function demoTools(): ToolDefinition[] {
  const notes = new Map<string, string[]>();
  const notesOf = (subject: string) => {
    let list = notes.get(subject);
    if (!list) notes.set(subject, (list = []));
    return list;
  };
  return [
    {
      name: 'notes_list',
      description: 'List the signed-in user\'s notes.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      risk: 'read',
      async execute(_input, context) {
        return { notes: [...notesOf(context.principal.subject)] };
      },
    },
    {
      name: 'notes_add',
      description: 'Add a note for the signed-in user.',
      inputSchema: { type: 'object', properties: { text: { type: 'string', minLength: 1, maxLength: 2000 } }, required: ['text'], additionalProperties: false },
      risk: 'write',
      preview: (input) => `Add the note “${(input as { text: string }).text}”`,
      async execute(input, context) {
        const list = notesOf(context.principal.subject);
        list.push((input as { text: string }).text);
        return { added: (input as { text: string }).text, count: list.length };
      },
    },
    {
      name: 'notes_clear',
      description: 'Delete every note of the signed-in user.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      risk: 'destructive',
      preview: () => 'Delete all of your notes',
      async execute(_input, context) {
        const list = notesOf(context.principal.subject);
        const removed = list.length;
        list.length = 0;
        return { removed };
      },
    },
    {
      name: 'web_fetch',
      description: 'Fetch a web page and return the start of its text.',
      inputSchema: { type: 'object', properties: { url: { type: 'string', format: 'uri', pattern: '^https?://' } }, required: ['url'], additionalProperties: false },
      risk: 'read',
      egress: true,
      preview: (input) => `Fetch ${(input as { url: string }).url}`,
      async execute(input, context) {
        const response = await fetch((input as { url: string }).url, { signal: context.signal, redirect: 'follow' });
        const text = await response.text();
        return { status: response.status, contentType: response.headers.get('content-type'), text: text.slice(0, 4000) };
      },
    },
  ];
}
