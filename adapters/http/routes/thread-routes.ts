import { z } from 'zod';
import type { ThreadUseCases } from '../../../ports/use-cases/threads.js';
import { Created, Stopped, ThreadDetail, ThreadList, ThreadSummary } from '../shapes/thread-shapes.js';
import { turnStream } from '../shapes/turn-stream-shapes.js';
import { MAX_TITLE } from '../../../domain/threads/thread.js';
import { idParam } from '../shapes/path-params.js';
import { writtenText } from '../shapes/written-text.js';
import { bare, json, jsonBody, route } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';
import { sendTurn, type TurnStreamOptions } from '../sse.js';
import { callerRoutes, pageQuery } from './caller-routes.js';
import { parseTurnBody, turnBody, turnInputOf } from './turn-body.js';
import { defined } from '../../../domain/defined.js';
const threadId = idParam('thread');
const listQuery = pageQuery.extend({
  q: writtenText(200)
    .optional()
    .describe('Words the title or a message must hold: each the start of a word, case and accents ignored. Never query syntax.'),
});
const messageIdParam = z
  .string()
  .regex(/^[\x21-\x7e]{1,256}$/, 'must be a message id (visible ASCII, at most 256 characters)')
  .describe("A message's id: the stored one, or the id the client sent it under.");
const showVersionBody = z.strictObject({
  index: z.number().int().min(0).describe('Which version to show, from 0 (the oldest); below its `count`.'),
});
const renameBody = z.strictObject({
  title: writtenText(MAX_TITLE).describe('The new title (whitespace folded).'),
});

/** Threads and their turns. */
export function threadRoutes(threads: ThreadUseCases, streams: TurnStreamOptions): WireRoutes {
  const thread = callerRoutes(threads, { param: threadId, key: 'threadId', within: { messageId: messageIdParam } });
  return principalFamily('Threads', [
    route({
      id: 'listThreads',
      method: 'get',
      path: '/threads',
      summary: "List or search the caller's threads",
      description:
        'With `q`, only threads whose title or messages (the text the person and the assistant wrote) hold every word of it, each as the start of a word ' +
        '(case and accents ignored; quotes, `*`, `-`, `OR` are not operators), best match first, each with `match`: a snippet and the words to highlight in it.',
      query: listQuery,
      responses: { 200: json('Thread summaries, newest first (with `q`, best match first).', ThreadList) },
      handle: async (ctx, { query: { q, ...page } }) => {
        const principal = principalOf(ctx);
        ctx.body = q
          ? await threads.searchThreads.execute({ principal, q, ...page })
          : await threads.listThreads.execute({ principal, ...page });
      },
    }),
    thread.post('/threads', 'createThread', {
      summary: 'Start a thread',
      responses: { 201: json('The new thread.', Created) },
    }),
    thread.get('/threads/:id', 'getThread', {
      summary: 'Read a thread with its messages',
      responses: { 200: json('The thread; its messages are AI SDK UIMessages.', ThreadDetail) },
    }),
    thread.post('/threads/:id/messages/:messageId/versions', 'showVersion', {
      summary: 'Show another version of a message',
      description:
        'A message that regenerate or edit and resend replaced keeps every version (`versions` in the thread). Showing version `index` puts the messages from ' +
        'this one on away as the version shown until now and brings back the chosen version with the messages that followed it; it lasts (a reload shows it). ' +
        'A message with no other version is 404 `not-found`, an `index` beyond its versions 400 `validation`, and while a turn is in flight on the thread 409 `conflict`.',
      body: jsonBody(showVersionBody),
      responses: { 200: json('The thread as it now shows.', ThreadDetail) },
      errors: ['conflict'],
    }),
    thread.patch('/threads/:id', 'renameThread', {
      summary: 'Rename a thread',
      body: jsonBody(renameBody),
      responses: { 200: json('The renamed thread.', ThreadSummary) },
    }),
    thread.delete('/threads/:id', 'deleteThread', {
      summary: 'Delete a thread',
    }),
    route({
      id: 'runTurn',
      method: 'post',
      path: '/threads/:id/turn',
      summary: 'Run a turn',
      description:
        'Send `{message}` (a user UIMessage, or just its text), `{continue: true}` (run the calls approved since the last turn, then let the model go on) or the AI SDK chat ' +
        "transport's own body `{id, messages, trigger, messageId}` (only the last message is read: the server owns the history; an assistant message with " +
        'answered approval parts carries approval responses). `trigger: "regenerate-message"` replaces the last answer with a new one; `submit-message` with a ' +
        '`messageId` replaces that message of the person and everything after it (edit and resend: the thread rewinds to it). ' +
        'A call that needs approval emits `tool-approval-request` and `data-porter-approval`, and the turn finishes. ' +
        "While a turn runs on the thread, a new one is refused with 409 (`concurrentTurns: 'reject'`), waits its turn with the stream open (`'enqueue'`), or stops the running turn and goes next (`'interrupt'`). " +
        'A user message is stored once per `id` the client gave it: sent again (a retry), it joins the turn carrying it on any instance, or replays the answer that turn stored, and is never stored twice; another message under an id already used is 409. ' +
        'The turn runs to its end whether or not anyone still reads it (unless the host set `turnGraceSeconds`).',
      params: { id: threadId },
      body: jsonBody(turnBody, 'turn', parseTurnBody),
      responses: { 200: turnStream('The turn as it happens.') },
      errors: ['conflict', 'rate-limited', 'not-implemented', 'unavailable'],
      handle: async (ctx, { params, body }) => {
        const input = turnInputOf(body);
        const cookie = ctx.get('cookie');
        const authorization = ctx.get('authorization');
        const turn = await threads.runTurn.execute({
          principal: principalOf(ctx),
          threadId: params.id,
          ...defined({ message: input.message }),
          answers: input.answers,
          ...defined({ rewind: input.rewind }),
          credentials: defined({ cookie: cookie || undefined, authorization: authorization || undefined }),
        });
        sendTurn(ctx, turn, streams);
      },
    }),
    route({
      id: 'rejoinTurn',
      method: 'get',
      path: '/threads/:id/stream',
      summary: 'Rejoin the turn in flight',
      description:
        'Streams the turn in flight on this thread, replayed from its first chunk, whichever instance runs it. A turn whose instance dies ends with an `error` part.',
      params: { id: threadId },
      responses: { 200: turnStream('The turn in flight.'), 204: bare('No turn is in flight on this thread.') },
      handle: async (ctx, { params }) => {
        const turn = await threads.rejoinTurn.execute({ principal: principalOf(ctx), threadId: params.id });
        if (!turn) {
          ctx.status = 204;
          return;
        }
        sendTurn(ctx, turn, streams);
      },
    }),
    thread.post('/threads/:id/stop', 'stopTurn', {
      summary: 'Stop the turn in flight',
      description:
        "Stops the turn in flight wherever it runs, cooperatively: the model's current step is cut, calls under way finish, the partial answer is saved and approvals it parked stay to be decided. Answers once the turn ended; `stopped` is false when none was in flight.",
      responses: { 200: json('Whether a turn was in flight and is stopped.', Stopped) },
    }),
  ]);
}
