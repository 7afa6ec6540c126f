import { z } from 'zod';
import { defineTool } from '../../application/tools/define-tool.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';

const NO_INPUT = z.strictObject({});
/** How long each step of the report takes: long enough to watch its progress. */
const STEP_MS = 900;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

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
    defineTool({
      name: 'notes_list',
      description: "List the signed-in user's notes.",
      input: NO_INPUT,
      risk: 'read',
      async execute(_input, context) {
        return { notes: [...notesOf(context.principal.subject)] };
      },
    }),
    defineTool({
      name: 'notes_add',
      description: 'Add a note for the signed-in user.',
      input: z.strictObject({ text: z.string().min(1).max(2000) }),
      risk: 'write',
      preview: ({ text }) => `Add the note “${text}”`,
      async execute({ text }, context) {
        const list = notesOf(context.principal.subject);
        list.push(text);
        return { added: text, count: list.length };
      },
    }),
    defineTool({
      name: 'notes_clear',
      description: 'Delete every note of the signed-in user.',
      input: NO_INPUT,
      risk: 'destructive',
      preview: () => 'Delete all of your notes',
      async execute(_input, context) {
        const list = notesOf(context.principal.subject);
        const removed = list.length;
        list.length = 0;
        return { removed };
      },
    }),
    defineTool({
      name: 'notes_report',
      description: "Write a short report of the signed-in user's notes; it takes a few seconds and says how far it got.",
      input: z.strictObject({ steps: z.number().int().min(1).max(10).default(3) }),
      risk: 'read',
      async execute({ steps }, context) {
        const notes = notesOf(context.principal.subject);
        for (let step = 1; step <= steps; step++) {
          // A progress part: the chrome shows the label and the time taken under the running call.
          context.writeData?.({
            type: 'data-progress',
            id: `progress:${context.toolCallId}`,
            data: { toolCallId: context.toolCallId, label: `Reading notes, step ${step} of ${steps}`, fraction: (step - 1) / steps },
          });
          await pause(STEP_MS, context.signal);
        }
        return {
          notes: notes.length,
          summary: notes.length ? `You have ${notes.length} notes: ${notes.join('; ')}` : 'You have no notes.',
        };
      },
    }),
    defineTool({
      name: 'web_fetch',
      description: 'Fetch a web page and return the start of its text.',
      // Any http(s) URL: where it may go is the egress guard's call (a schema refusing address
      // literals would also turn away public ones, and say less about why).
      input: z.strictObject({ url: z.url({ protocol: /^https?$/ }).describe('An http:// or https:// URL') }),
      risk: 'read',
      egress: true,
      preview: ({ url }) => `Fetch ${url}`,
      async execute({ url }, context) {
        // Through the egress guard: a URL that is, or resolves to, this machine or a private network is refused.
        const response = await context.fetch(url);
        const text = await response.text();
        return { status: response.status, contentType: response.headers.get('content-type'), text: text.slice(0, 4000) };
      },
    }),
  ];
}
