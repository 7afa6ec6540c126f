import { z } from 'zod';
import { MEMORY_TEXT_LIMIT, MEMORY_TEXT_PATTERN } from '../../../domain/memory/memory.js';
import type { MemoryUseCases } from '../../../ports/use-cases/memory.js';
import { Memory, MemoryExport, MemoryList } from '../shapes/memory-shapes.js';
import { idParam } from '../shapes/path-params.js';
import { json, jsonBody, route } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';
import { callerRoutes } from './caller-routes.js';

const text = z
  .string()
  .min(1)
  .max(MEMORY_TEXT_LIMIT)
  .regex(MEMORY_TEXT_PATTERN, 'must say something, without control characters (tab and line breaks aside)')
  .describe(
    `1 to ${MEMORY_TEXT_LIMIT} characters, kept trimmed; blank text or a control character (but tab and line breaks) is 400 \`validation\`.`,
  );

const addBody = z.strictObject({ text });
const editBody = z.strictObject({
  text,
  revision: z
    .number()
    .int()
    .min(1)
    .describe('The `revision` the edit was made against. Another one stored since is 409 `conflict`, nothing overwritten.'),
});

/** The caller's memories: list, add, read, edit (against a revision), forget, export. Owner-scoped: another person's is 404. */
export function memoryRoutes(memory: MemoryUseCases): WireRoutes {
  const one = callerRoutes(memory, { param: idParam('memory'), key: 'memoryId' });
  return principalFamily('Memory', [
    one.list('/memories', 'listMemories', {
      summary: "List the caller's memories",
      responses: { 200: json('Memories, newest first.', MemoryList) },
    }),
    one.post('/memories', 'addMemory', {
      summary: 'Keep a memory',
      description:
        'The person adds a memory themselves. Text they already keep answers that memory; past `memory.maxPerPerson` it is 409 `conflict`.',
      body: jsonBody(addBody),
      responses: { 201: json('The memory kept.', Memory) },
      errors: ['conflict'],
    }),
    // The literal route is registered ahead of /memories/:id.
    route({
      id: 'exportMemories',
      method: 'get',
      path: '/memories/export',
      summary: "Export the caller's memories",
      description: 'Every memory the caller keeps, as one JSON document (an attachment).',
      responses: {
        200: json('The memories.', MemoryExport, {
          'content-disposition': { description: '`attachment` with the file name.', schema: z.string() },
        }),
      },
      handle: async (ctx) => {
        const exported = await memory.exportMemories.execute({ principal: principalOf(ctx) });
        ctx.attachment('memories.json');
        ctx.type = 'application/json';
        ctx.body = exported;
      },
    }),
    one.get('/memories/:id', 'getMemory', {
      summary: 'Read a memory',
      responses: { 200: json('The memory.', Memory) },
    }),
    one.patch('/memories/:id', 'editMemory', {
      summary: 'Edit a memory',
      description:
        'Written only over the `revision` named: when the memory changed since, the answer is 409 `conflict` with the current memory in `details.current`, and nothing is overwritten.',
      body: jsonBody(editBody),
      responses: { 200: json('The memory, edited.', Memory) },
      errors: ['conflict', 'unavailable'],
    }),
    one.delete('/memories/:id', 'forgetMemory', {
      summary: 'Forget a memory',
    }),
  ]);
}
