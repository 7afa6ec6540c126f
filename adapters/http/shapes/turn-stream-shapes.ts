import { z } from 'zod';
import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import type { Answer } from '../wire-route.js';
import { PinDrift } from './app-shapes.js';
import { Risk } from './common-shapes.js';

/**
 * The chunks a Porter turn streams (`UiChunk`, domain/threads/ui-chunk.ts), as the AI SDK UI
 * message stream protocol v1 names them: one per SSE event, a `oneOf` told apart by `type`.
 * Porter's own data parts are described with their `data`; a host tool's `writeData` parts are
 * any other `data-<name>`.
 */

const kind = <T extends string>(type: T, fields: z.ZodRawShape, description: string) =>
  z.object({ type: z.literal(type), ...fields }).describe(description);

const finishReasons = ['stop', 'length', 'tool-calls', 'error', 'other'] as const;

const PORTER_DATA = [
  'data-porter-approval',
  'data-porter-view',
  'data-porter-error',
  'data-porter-connect',
  'data-porter-tool-result',
  'data-porter-memory',
] as const;

const SourceMetadata = z
  .record(z.string(), z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])))
  .describe(
    "By provider. Porter's citations of a knowledge passage carry `porter: {documentId, passageId, start, end}`: the passage's place in the document's text (UTF-16 offsets, end exclusive).",
  );

const ViewNode = z.object({
  type: z.string().nullable(),
  props: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  children: z.array(z.string()),
  pending: z.boolean().describe('Its source has not arrived yet: draw a skeleton.'),
  bind: z.string().optional(),
  action: z.string().optional(),
});

const AppView = z
  .object({
    appId: z.string(),
    status: z.enum(['generating', 'ready', 'failed']),
    title: z.string().nullable(),
    ui: z.enum(['tree', 'http']),
    root: z.string().nullable(),
    nodes: z.record(z.string(), ViewNode),
    message: z.string().optional().describe('Why generation failed.'),
    pinDrift: PinDrift.optional(),
  })
  .meta({ id: 'AppView', description: 'What the renderer draws while an app is generated and once it is ready.' });

export const UiMessageChunk = z
  .xor([
    kind('start', { messageId: z.string().optional() }, 'The answer begins.'),
    kind('start-step', {}, 'A model step begins.'),
    kind('finish-step', {}, 'A model step ended.'),
    kind('text-start', { id: z.string() }, 'A text part begins.'),
    kind('text-delta', { id: z.string(), delta: z.string() }, 'More text for the part `id`.'),
    kind('text-end', { id: z.string() }, 'The text part `id` is complete.'),
    kind(
      'tool-input-available',
      { toolCallId: z.string(), toolName: z.string(), input: z.unknown() },
      'The model called a tool with this input.',
    ),
    kind('tool-output-available', { toolCallId: z.string(), output: z.unknown() }, 'The call ran: its output.'),
    kind('tool-output-error', { toolCallId: z.string(), errorText: z.string() }, 'The call failed, was blocked or was not valid.'),
    kind(
      'tool-approval-request',
      { approvalId: z.string(), toolCallId: z.string() },
      'The call waits for the person: decide it with `POST /approvals/{approvalId}/decide` (or answer it as the AI SDK does); the turn then finishes.',
    ),
    kind('tool-output-denied', { toolCallId: z.string() }, 'The person denied the call.'),
    kind('error', { errorText: z.string() }, 'The turn failed (a model failure, a budget spent mid-turn); what was said so far is kept.'),
    kind('abort', { reason: z.string().optional() }, 'The turn was stopped.'),
    kind('finish', { finishReason: z.enum(finishReasons).optional() }, 'The answer ended; `[DONE]` follows.'),
    kind(
      'data-porter-approval',
      {
        id: z.string().describe('`porter-approval:<approvalId>`.'),
        data: z.object({ approvalId: z.string(), toolCallId: z.string(), risk: Risk, preview: z.string() }),
      },
      'Beside `tool-approval-request`: what the call would do, and its risk.',
    ),
    kind(
      'data-porter-view',
      { id: z.string().describe('`porter-view:<appId>`: a later part with the same id replaces it in place.'), data: AppView },
      "A generated app's view, updated as it is generated.",
    ),
    kind(
      'data-porter-error',
      {
        id: z.string().optional(),
        data: z.object({
          message: z.string(),
          code: z.string().optional().describe('The envelope code, e.g. `rate-limited`.'),
          budget: z.string().optional().describe('The budget that ran out.'),
          retryAfter: z.number().int().optional().describe('Seconds until it frees a unit.'),
        }),
      },
      'Why the turn failed, for the person.',
    ),
    kind(
      'data-porter-connect',
      {
        id: z.string().describe('`porter-connect:<toolCallId>`.'),
        data: z.object({ toolkit: z.string(), tool: z.string(), toolCallId: z.string() }),
      },
      'A tool needs the person to connect an account (`POST /connections/initiate`).',
    ),
    kind(
      'data-porter-tool-result',
      {
        id: z.string().describe('`porter-tool-result:<toolCallId>`.'),
        data: z.object({
          toolCallId: z.string(),
          approvalId: z.string(),
          state: z.enum(['output-available', 'output-error', 'output-denied']),
          output: z.unknown().optional(),
          errorText: z.string().optional(),
        }),
      },
      'An approved (or denied) call of an earlier answer settled at the start of this turn.',
    ),
    kind(
      'data-porter-memory',
      {
        id: z.string().describe('`porter-memory:<toolCallId>`.'),
        data: z.object({
          action: z.enum(['saved', 'forgotten']),
          memoryId: z.string(),
          text: z.string().describe('What was remembered (or forgotten).'),
        }),
      },
      'The agent remembered something about the person (`memory_save`) or forgot it (`memory_forget`): the conversation shows it.',
    ),
    kind(
      'source-document',
      {
        sourceId: z.string().describe('For a knowledge passage: its `psg_` id (`GET /knowledge/passages/{id}` reads it).'),
        mediaType: z.string().describe("The document's media type."),
        title: z.string().describe("The document's title."),
        filename: z.string().optional(),
        providerMetadata: SourceMetadata.optional(),
      },
      'A document the answer cites (`knowledge_search`, or a host tool).',
    ),
    kind(
      'source-url',
      { sourceId: z.string(), url: z.string(), title: z.string().optional(), providerMetadata: SourceMetadata.optional() },
      'A web page the answer cites (a host tool).',
    ),
    z
      .object({
        type: z
          .string()
          .regex(/^data-/)
          .refine((type) => !(PORTER_DATA as ReadonlyArray<string>).includes(type))
          .meta({ not: { enum: [...PORTER_DATA] } }),
        id: z.string().optional(),
        data: z.unknown(),
      })
      .describe("A host tool's own data part (`context.writeData`)."),
  ])
  .meta({
    id: 'UiMessageChunk',
    description:
      'The JSON of one event of the AI SDK UI message stream protocol v1, as a Porter turn sends it; `type` tells the kinds apart. A stock AI SDK reader (`readUIMessageStream`, `useChat`) folds them into the assistant UIMessage.',
  });

/** How each SSE event of a turn is framed, for the document's description of the stream. */
export const TURN_EVENTS =
  'Each event is one `data:` line: a UiMessageChunk as JSON, and last `[DONE]`. While nothing else is sent for a while (a long tool call, a turn waiting in line) a comment line `: keep-alive` goes out, which SSE readers skip. Porter sends no `event`, `id` or `retry` fields.';

/** A turn as the AI SDK's stream: read it with `readUIMessageStream`, `useChat` or any SSE reader. */
export function turnStream(description: string): Answer {
  return {
    description: `${description} Server-sent events of the AI SDK UI message stream protocol v1. ${TURN_EVENTS}`,
    content: { 'text/event-stream': null },
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
