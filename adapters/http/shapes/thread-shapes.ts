import { z } from 'zod';
import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import type { Answer } from '../wire-route.js';
import { isoTime, nextCursor, UiMessage } from './common-shapes.js';

export const ThreadSummary = z.object({ id: z.string(), title: z.string(), updatedAt: isoTime }).meta({ id: 'ThreadSummary' });

export const ThreadList = z
  .object({ threads: z.array(ThreadSummary), nextCursor })
  .meta({ id: 'ThreadList', description: 'Newest first.' });

export const ThreadDetail = z.object({ id: z.string(), title: z.string(), messages: z.array(UiMessage) }).meta({ id: 'Thread' });

export const Created = z.object({ id: z.string() }).meta({ id: 'Created' });

export const Stopped = z.object({ stopped: z.boolean() }).meta({ id: 'TurnStopped' });

const CHUNK_TYPES = [
  'start',
  'start-step',
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'tool-input-start',
  'tool-input-delta',
  'tool-input-available',
  'tool-input-error',
  'tool-approval-request',
  'tool-output-available',
  'tool-output-error',
  'tool-output-denied',
  'source-url',
  'source-document',
  'file',
  'message-metadata',
  'finish-step',
  'finish',
  'abort',
  'error',
];

/** One SSE event's `data` in the AI SDK UI message stream protocol v1. */
export const UiMessageChunk = z
  .looseObject({ type: z.string().describe(`One of ${CHUNK_TYPES.map((t) => `\`${t}\``).join(', ')}, or \`data-<name>\`.`) })
  .meta({
    id: 'UiMessageChunk',
    description:
      "The JSON of one SSE event of the AI SDK UI message stream protocol v1 (each kind carries the AI SDK's own fields). Porter's own data parts: " +
      '`data-porter-approval` `{approvalId, toolCallId, risk, preview}` (a call waits for approval; the turn then finishes), ' +
      "`data-porter-view` (a generated app's view, id `porter-view:<appId>`, replaced in place), `data-porter-error` (the model failed mid-turn) " +
      'and `data-porter-connect` (a tool needs a connection).',
  });

/** A turn as the AI SDK's stream: read it with `readUIMessageStream`, `useChat` or any SSE reader. */
export function turnStream(description: string): Answer {
  return {
    description: `${description} Server-sent events of the AI SDK UI message stream protocol v1: each event's \`data\` is a UiMessageChunk (JSON), and the stream ends with \`data: [DONE]\`.`,
    content: { 'text/event-stream': z.string().describe('SSE frames: `data: <UiMessageChunk JSON>` … `data: [DONE]`.') },
    events: UiMessageChunk,
    headers: {
      'x-vercel-ai-ui-message-stream': {
        description: 'The protocol version.',
        schema: z.literal(UI_MESSAGE_STREAM_HEADERS['x-vercel-ai-ui-message-stream']),
      },
      'x-porter-thread-id': { description: 'The thread the turn belongs to.', schema: z.string() },
    },
  };
}
