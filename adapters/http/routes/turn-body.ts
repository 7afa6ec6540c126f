import { z } from 'zod';
import type { UiMessage } from '../../../domain/threads/ui-message.js';
import type { ApprovalAnswer } from '../../../ports/use-cases/threads.js';
import type { Rewind } from '../../../domain/threads/rewind.js';
import { InvalidInput } from '../../../domain/errors.js';
import { defined } from '../../../domain/defined.js';

const metadata = z.record(z.string(), z.unknown());

const textPart = z.strictObject({
  type: z.literal('text'),
  text: z.string().max(200_000),
  state: z.enum(['streaming', 'done']).optional(),
  providerMetadata: metadata.optional(),
});
const filePart = z.strictObject({
  type: z.literal('file'),
  mediaType: z.string().min(1),
  url: z.string().min(1),
  filename: z.string().optional(),
  providerMetadata: metadata.optional(),
});
/**
 * A file part of the person's new message: its url must be one an upload answered
 * (`{wire}/files/fil_…`, a path on this wire); bytes never come inline or from elsewhere.
 */
const attachedFilePart = filePart.extend({
  url: z
    .string()
    .max(1000)
    .regex(
      /^\/(?:[A-Za-z0-9._~-]+\/)*files\/fil_[0-9A-Za-z_-]{10,64}$/,
      'must be the url POST /threads/:id/files answered ({wire}/files/fil_…)',
    )
    .describe('The url `POST /threads/:id/files` answered; a `data:` or `http(s):` url is refused (400).'),
});
const reasoningPart = z.strictObject({
  type: z.literal('reasoning'),
  id: z.string().optional(),
  text: z.string(),
  state: z.enum(['streaming', 'done']).optional(),
  providerMetadata: metadata.optional(),
});
const stepStartPart = z.strictObject({ type: z.literal('step-start') });
const sourceUrlPart = z.strictObject({
  type: z.literal('source-url'),
  sourceId: z.string(),
  url: z.string(),
  title: z.string().optional(),
  providerMetadata: metadata.optional(),
});
const sourceDocumentPart = z.strictObject({
  type: z.literal('source-document'),
  sourceId: z.string(),
  mediaType: z.string(),
  title: z.string(),
  filename: z.string().optional(),
  providerMetadata: metadata.optional(),
});
const dataPart = z.strictObject({ type: z.string().regex(/^data-/), id: z.string().optional(), data: z.unknown() });
const approval = z.strictObject({
  id: z.string(),
  approved: z.boolean().optional(),
  reason: z.string().optional(),
  descriptor: z.unknown().optional(),
  signature: z.string().optional(),
  inputSchemaInput: z.unknown().optional(),
});
const toolPart = z.strictObject({
  type: z.string().regex(/^(tool-.+|dynamic-tool)$/),
  toolCallId: z.string(),
  toolName: z.string().optional(),
  state: z.enum([
    'input-streaming',
    'input-available',
    'approval-requested',
    'approval-responded',
    'output-available',
    'output-error',
    'output-denied',
  ]),
  input: z.unknown().optional(),
  rawInput: z.unknown().optional(),
  inputEncoding: z.enum(['json', 'text']).optional(),
  output: z.unknown().optional(),
  errorText: z.string().optional(),
  approval: approval.optional(),
  title: z.string().optional(),
  toolMetadata: metadata.optional(),
  providerExecuted: z.boolean().optional(),
  preliminary: z.boolean().optional(),
  dynamic: z.boolean().optional(),
  callProviderMetadata: metadata.optional(),
  resultProviderMetadata: metadata.optional(),
});

const userMessage = z.strictObject({
  id: z.string().max(200).optional(),
  role: z.literal('user'),
  parts: z
    .array(z.union([textPart, attachedFilePart]))
    .min(1)
    .max(100),
  metadata: z.unknown().optional(),
});

const anyMessage = z.strictObject({
  id: z.string().max(200),
  role: z.enum(['system', 'user', 'assistant']),
  parts: z
    .array(z.union([textPart, filePart, reasoningPart, stepStartPart, sourceUrlPart, sourceDocumentPart, toolPart, dataPart]))
    .max(1000),
  metadata: z.unknown().optional(),
});

/** A bare string is a text message: `{"message": "hi"}`. */
const textMessage = z
  .string()
  .min(1)
  .max(200_000)
  .transform((text): z.output<typeof userMessage> => ({ role: 'user', parts: [{ type: 'text', text }] }));

const messageBody = z.strictObject({ message: z.union([textMessage, userMessage]) });
const continueBody = z.strictObject({ continue: z.literal(true) });
const chatBody = z.strictObject({
  id: z.string().optional(),
  messages: z.array(anyMessage).min(1),
  trigger: z.enum(['submit-message', 'regenerate-message']).optional(),
  messageId: z.string().optional(),
});

/** `{message}` (a text or a user UIMessage), `{continue: true}`, or the AI SDK chat transport's own body. */
export const turnBody = z.union([messageBody, continueBody, chatBody]).meta({
  id: 'TurnBody',
  description:
    "`{message}` (a text, or a user UIMessage), `{continue: true}`, or the AI SDK chat transport's own body (only its last message is read). " +
    "A rule JSON Schema cannot say: in the chat body, the last message must be the user's, with text and file parts only, or the assistant's (carrying the approval answers); another last message is 400 `validation`. " +
    "A new message's file parts name files the caller uploaded in this thread (another is 404), at most `uploads.maxFilesPerMessage` of them (more is 400 `validation`), of types the model can read or be given as text (another is 415).",
});

export type TurnBody = z.output<typeof turnBody>;

export const TURN_BODY_SHAPES =
  'The turn body must be {"message": "text" | UIMessage}, {"continue": true} or the AI SDK chat body {"messages": [...]}';

/**
 * Reads a turn body. A body that fits none of the shapes is refused with the shapes spelled out,
 * and the issues of the shape it was closest to (judged by its keys) as details.
 */
export function parseTurnBody(input: unknown): TurnBody {
  const parsed = turnBody.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = issuesAgainstClosest(input);
  const first = issues[0];
  const hint = first ? ` (${first.path ? `${first.path}: ` : ''}${first.message})` : '';
  throw new InvalidInput(`${TURN_BODY_SHAPES}${hint}`, issues);
}

function issuesAgainstClosest(input: unknown): Array<{ path: string; message: string }> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return [{ path: '', message: 'Expected a JSON object' }];
  const body = input as Record<string, unknown>;
  const closest =
    'message' in body
      ? z.strictObject({ message: typeof body.message === 'string' ? textMessage : userMessage })
      : 'continue' in body
        ? continueBody
        : 'messages' in body
          ? chatBody
          : null;
  if (!closest)
    return [
      {
        path: '',
        message: `Expected a "message", "continue" or "messages" key${
          Object.keys(body).length
            ? `; got ${Object.keys(body)
                .map((key) => JSON.stringify(key))
                .join(', ')}`
            : ''
        }`,
      },
    ];
  return (closest.safeParse(input).error?.issues ?? []).map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/**
 * What the turn takes from the body: the new user message only, or the approval answers. The AI
 * SDK's `regenerate()` (`trigger: "regenerate-message"`) replaces the last answer; its
 * `sendMessage({text, messageId})` (`submit-message` naming a message) replaces the last message
 * the person sent. Either way the server's history decides what goes, not the messages sent.
 */
export function turnInputOf(body: TurnBody): { message?: UiMessage; answers: ApprovalAnswer[]; rewind?: Rewind } {
  if ('message' in body) return { message: toUiMessage(body.message), answers: [] };
  if ('continue' in body) return { answers: [] };
  const messageId = body.messageId !== undefined ? { messageId: body.messageId } : {};
  if (body.trigger === 'regenerate-message') return { answers: [], rewind: { kind: 'answer', ...messageId } };
  const last = body.messages[body.messages.length - 1]!;
  if (last.role === 'user') {
    const parsed = userMessage.safeParse(last);
    if (!parsed.success) throw new InvalidInput('The last message must have text or file parts only');
    return {
      message: toUiMessage(parsed.data),
      answers: [],
      ...defined({ rewind: body.messageId !== undefined ? { kind: 'message' as const, messageId: body.messageId } : undefined }),
    };
  }
  if (last.role !== 'assistant') throw new InvalidInput('The last message must come from the user, or carry approval answers');
  const answers = last.parts.flatMap((part) =>
    'toolCallId' in part && part.state === 'approval-responded' && part.approval?.approved !== undefined
      ? [{ approvalId: part.approval.id, approved: part.approval.approved }]
      : [],
  );
  return { answers };
}

function toUiMessage(message: z.output<typeof userMessage>): UiMessage {
  return {
    id: message.id ?? '',
    role: 'user',
    parts: message.parts,
    ...defined({ metadata: message.metadata }),
  };
}
