import { z } from 'zod';
import { defineTool } from 'porter-runtime';

/** The notes each person has, in memory: a stand-in for the host's own data. */
const notes = new Map<string, string[]>();

/** The one host tool every example mounts: a write, so the agent asks before it runs. */
export const notesAdd = defineTool({
  name: 'notes_add',
  description: "Add a note to the signed-in person's notes.",
  input: z.strictObject({ text: z.string().min(1).max(2000) }),
  risk: 'write',
  preview: ({ text }) => `Add the note "${text}"`,
  async execute({ text }, context) {
    const mine = notes.get(context.principal.subject) ?? [];
    mine.push(text);
    notes.set(context.principal.subject, mine);
    return { added: text, count: mine.length };
  },
});
