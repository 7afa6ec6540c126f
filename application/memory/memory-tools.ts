import { z } from 'zod';
import type { EffectiveRisk, Risk } from '../../domain/guard/risk.js';
import { MEMORY_TEXT_LIMIT, MEMORY_TEXT_PATTERN } from '../../domain/memory/memory.js';
import { idPattern } from '../../domain/ids.js';
import type { RiskContext, ToolContext, ToolDefinition } from '../../ports/tool-registry.js';
import { defineTool } from '../tools/define-tool.js';
import type { ForgetMemory } from './forget-memory.js';
import type { SaveMemory } from './save-memory.js';
import type { SearchMemories } from './search-memories.js';
import { defined } from '../../domain/defined.js';

export const MEMORY_TOOL_NAMES = ['memory_save', 'memory_search', 'memory_forget'] as const;
const OWN_TOOLS: ReadonlySet<string> = new Set(MEMORY_TOOL_NAMES);

/** The part a conversation shows when the agent remembers or forgets something (`data-porter-memory`). */
export interface MemoryPart {
  readonly action: 'saved' | 'forgotten';
  readonly memoryId: string;
  readonly text: string;
}

/**
 * Whether a change to the person's memories runs without asking. Only in a chat turn (the person
 * is there and sees the `data-porter-memory` part) whose model has read no tool output but the
 * memory tools' own: then the words that asked for it can only be the person's (or the model's
 * own reading of them). Once any other tool's output is in view (a fetched page, a host tool's
 * answer, an email) a prompt injection could be asking, so the change asks the person first, with
 * its text on the approval card; so does every call from an automation, an app or the door, whose
 * context Porter cannot vouch for. A remembered grant of the tool lifts the ask, as for any tool.
 */
export function memoryChangeRisk(context: RiskContext, asking: Risk): EffectiveRisk {
  const clean =
    context.venue === 'chat' && context.toolOutputsRead !== undefined && context.toolOutputsRead.every((name) => OWN_TOOLS.has(name));
  return { risk: clean ? 'read' : asking, egress: false };
}

function quoted(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ');
  return `“${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}”`;
}

function show(context: ToolContext, toolCallId: string, part: MemoryPart): void {
  context.writeData?.({ type: 'data-porter-memory', id: `porter-memory:${toolCallId}`, data: part });
}

const MEMORY_ID = z.string().regex(idPattern('memory')).describe('The memory id (mem_…), as memory_search answers it');

/**
 * The agent's memory tools: keep, find and forget what it knows about the person it talks with.
 * Every call acts on the caller's own memories only (their subject, and their org when the host
 * keeps memories per org). See memoryChangeRisk for when a change asks first.
 */
export function memoryTools(deps: { save: SaveMemory; search: SearchMemories; forget: ForgetMemory }): ToolDefinition[] {
  return [
    defineTool({
      name: 'memory_save',
      description:
        'Remember one lasting fact about the person you are talking with (a preference, a detail of their life or work) for later conversations. ' +
        'Save only what the person told you or clearly wants kept, one short fact per call, written as a statement about them. The person sees every memory saved.',
      input: z.strictObject({
        text: z.string().min(1).max(MEMORY_TEXT_LIMIT).regex(MEMORY_TEXT_PATTERN).describe('The fact, in one or two sentences.'),
      }),
      risk: 'write',
      readOnly: false,
      resolveRisk: (_input, context) => memoryChangeRisk(context, 'write'),
      preview: ({ text }) => `Remember: ${quoted(text)}`,
      async execute({ text }, context) {
        const saved = await deps.save.execute({
          principal: context.principal,
          text,
          source: {
            kind: 'agent',
            toolCallId: context.toolCallId,
            ...defined({ threadId: context.threadId || undefined, runId: context.runId || undefined }),
          },
        });
        show(context, context.toolCallId, { action: 'saved', memoryId: saved.memory.id, text: saved.memory.text });
        return { memoryId: saved.memory.id, text: saved.memory.text, alreadyKnown: saved.existed };
      },
    }),
    defineTool({
      name: 'memory_search',
      description:
        "Look through what you remember about the person (their saved memories) for what bears on a question. Memories relevant to the person's message are already given to you each turn; search for more.",
      input: z.strictObject({
        query: z.string().min(1).max(500).describe('Words to look for.'),
        limit: z.number().int().min(1).max(20).default(5).describe('How many memories to answer, best first.'),
      }),
      risk: 'read',
      async execute({ query, limit }, context) {
        const found = await deps.search.execute({ principal: context.principal, query, limit });
        return { memories: found.map((memory) => ({ memoryId: memory.id, text: memory.text, updatedAt: memory.updatedAt })) };
      },
    }),
    defineTool({
      name: 'memory_forget',
      description: 'Forget one memory about the person, when they ask you to or it is no longer true. The person sees what was forgotten.',
      input: z.strictObject({ memoryId: MEMORY_ID }),
      risk: 'destructive',
      resolveRisk: (_input, context) => memoryChangeRisk(context, 'destructive'),
      preview: ({ memoryId }) => `Forget memory ${memoryId}`,
      async execute({ memoryId }, context) {
        const gone = await deps.forget.forget({ principal: context.principal, memoryId, by: 'agent' });
        show(context, context.toolCallId, { action: 'forgotten', memoryId: gone.id, text: gone.text });
        return { forgotten: gone.id, text: gone.text };
      },
    }),
  ];
}
