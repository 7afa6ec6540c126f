import { z } from 'zod';
import { isoTime, nextCursor } from './common-shapes.js';

const MemorySource = z
  .union([
    z.object({
      kind: z.literal('agent'),
      threadId: z.string().optional(),
      runId: z.string().optional(),
      toolCallId: z.string().describe('The `memory_save` call that kept it.'),
    }),
    z.object({ kind: z.literal('person') }),
  ])
  .meta({ id: 'MemorySource', description: 'Who kept it: the agent in a conversation (`memory_save`), or the person.' });

export const Memory = z
  .object({
    id: z.string().describe('The `mem_` id.'),
    text: z.string(),
    source: MemorySource,
    revision: z.number().int().describe('Grows with every edit; `PATCH` names the revision it changes.'),
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .meta({ id: 'Memory', description: 'One thing the agent remembers about the caller.' });

export const MemoryList = z
  .object({ memories: z.array(Memory), nextCursor })
  .meta({ id: 'MemoryList', description: "The caller's memories, newest first." });

export const MemoryExport = z
  .object({
    format: z.literal('porter-memories'),
    version: z.literal(1),
    exportedAt: isoTime,
    memories: z.array(Memory),
  })
  .meta({ id: 'MemoryExport', description: 'Every memory the caller keeps.' });
