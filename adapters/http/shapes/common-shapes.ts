import { z } from 'zod';
import type { ErrorCode } from '../../../domain/errors.js';
import { STATUS_BY_CODE } from '../error-envelope.js';

/**
 * Shapes the wire answers with, as zod schemas for the OpenAPI document (never used to parse).
 * Named ones (`meta({id})`) become `components.schemas` entries. Objects stay open: a client
 * should ignore fields it does not know.
 */

/** Any JSON value, named so that its recursion has a name in the document. */
export const JsonValue: z.ZodType<unknown> = z
  .lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValue), z.record(z.string(), JsonValue)]))
  .meta({ id: 'JsonValue', description: 'Any JSON value.' });

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z
        .enum(Object.keys(STATUS_BY_CODE) as [ErrorCode, ...ErrorCode[]])
        .describe('Stable: a client branches on it (the HTTP status follows from it).'),
      message: z.string().describe('For people; it may change.'),
      details: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('Facts about the failure, e.g. `issues` for `validation` (`[{path, message}]`).'),
    }),
  })
  .meta({ id: 'ErrorEnvelope', description: 'Every non-2xx wire answer (the MCP door answers in OAuth and JSON-RPC shapes instead).' });

export const nextCursor = z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.');

export const isoTime = z.string().describe('An ISO 8601 instant.');

export const UiMessagePart = z
  .looseObject({
    type: z
      .string()
      .describe(
        '`text`, `file`, `reasoning`, `step-start`, `source-url`, `source-document`, `tool-<name>`, `dynamic-tool` or `data-<name>`.',
      ),
  })
  .meta({ id: 'UiMessagePart', description: "A part of an AI SDK UIMessage; each kind carries the AI SDK's own fields." });

export const MessageInterruption = z
  .object({
    reason: z
      .enum(['model-failed', 'limit-reached', 'given-up', 'instance-stopped'])
      .describe(
        '`model-failed`: the model failed mid-answer; `limit-reached`: a budget or breaker ran out; `given-up`: nobody read the turn for `turnGraceSeconds`; `instance-stopped`: the instance writing it stopped (a crash, its lease lapsing) before the answer was saved whole.',
      ),
    message: z.string().describe('What happened, in words a person reads.'),
  })
  .meta({
    id: 'MessageInterruption',
    description:
      'The turn answering this message did not finish: on the answer as far as it got, or on the person’s message when no answer was kept. A turn that answers it again (the AI SDK’s regenerate) clears it. A person’s stop is no interruption.',
  });

export const UiMessage = z
  .object({
    id: z.string(),
    role: z.enum(['system', 'user', 'assistant']),
    parts: z.array(UiMessagePart),
    metadata: z
      .looseObject({ interrupted: MessageInterruption.optional() })
      .optional()
      .describe('The message’s metadata: what the client sent with it, and `interrupted` when Porter marks it.'),
  })
  .meta({ id: 'UiMessage', description: 'A message in the AI SDK UIMessage format, as a stock `ai` client renders it.' });

export const Risk = z.enum(['read', 'write', 'destructive']).meta({ id: 'Risk' });
