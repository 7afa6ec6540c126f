import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type ChatInit,
  type ChatTransport,
  type HttpChatTransportInitOptions,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { turnRequestBody } from './turn-request.js';
import { resolved, threadUrl, type PorterClientOptions } from './wire-url.js';

export interface PorterChatTransportOptions extends PorterClientOptions {
  /** The thread every request goes to. Default: the chat's own id, so `useChat({ id: threadId, transport })` works. */
  readonly threadId?: string;
}

type SendOptions<M extends UIMessage> = Parameters<ChatTransport<M>['sendMessages']>[0];
type ReconnectOptions<M extends UIMessage> = Parameters<ChatTransport<M>['reconnectToStream']>[0];

/**
 * The AI SDK chat transport for Porter's wire. Sending posts only what is new to
 * `{wire}/threads/:id/turn` (the user's message, the approval answers, or `{continue: true}`);
 * reconnecting (`useChat({ resume: true })`, `resumeStream()`) reads `{wire}/threads/:id/stream`,
 * which replays the turn in flight from its start, or answers 204 when there is none.
 *
 * Porter runs a turn to its end after its last reader goes away, so a reloaded page rejoins it
 * and a closed tab finds the answer stored; a retried send (the same message id) joins the turn or
 * gets its stored answer, never a second copy. A deliberate `stop()` is different: the transport
 * then asks the wire to stop the turn (`POST {wire}/threads/:id/stop`), and a message sent right
 * after waits for that.
 */
export class PorterChatTransport<M extends UIMessage = UIMessage> implements ChatTransport<M> {
  /** Porter's rejoin replays the turn from its first chunk. */
  readonly resumeStreamIsReplay = true;
  private readonly http: DefaultChatTransport<M>;
  /** Stop requests under way, by thread: the next turn on that thread waits for its stop. */
  private readonly stopping = new Map<string, Promise<void>>();
  /** How many reconnects each thread has started: a reconnect aborted for a newer one is not a stop. */
  private readonly reconnects = new Map<string, number>();

  constructor(private readonly options: PorterChatTransportOptions) {
    if (typeof options?.wire !== 'string')
      throw new TypeError('porterChatTransport needs `wire`: where Porter is mounted, e.g. "/api/porter"');
    const init: HttpChatTransportInitOptions<M> = {
      credentials: options.credentials ?? 'same-origin',
      ...(options.headers !== undefined ? { headers: options.headers } : {}),
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
      prepareSendMessagesRequest: ({ id, messages, trigger, messageId, body }) => {
        if (Object.keys(body ?? {}).length > 0) {
          throw new TypeError(
            `Porter's turn route takes no extra body fields (got ${Object.keys(body!).join(', ')}); send request context as headers instead`,
          );
        }
        return { api: threadUrl(options.wire, this.threadOf(id), 'turn'), body: turnRequestBody(messages, trigger, messageId) };
      },
      prepareReconnectToStreamRequest: ({ id }) => ({ api: threadUrl(options.wire, this.threadOf(id), 'stream') }),
    };
    this.http = new DefaultChatTransport<M>(init);
  }

  async sendMessages(request: SendOptions<M>): Promise<ReadableStream<UIMessageChunk>> {
    const threadId = this.threadOf(request.chatId);
    await this.stopping.get(threadId);
    const watch = this.watch(threadId, request, 'send');
    try {
      return watch.through(await this.http.sendMessages(request));
    } catch (error) {
      watch.release();
      throw error;
    }
  }

  async reconnectToStream(request: ReconnectOptions<M>): Promise<ReadableStream<UIMessageChunk> | null> {
    const threadId = this.threadOf(request.chatId);
    this.reconnects.set(threadId, (this.reconnects.get(threadId) ?? 0) + 1);
    const watch = this.watch(threadId, request, 'reconnect');
    try {
      const stream = await this.http.reconnectToStream(request);
      if (!stream) watch.release();
      return stream && watch.through(stream);
    } catch (error) {
      watch.release();
      throw error;
    }
  }

  private threadOf(chatId: string): string {
    const threadId = this.options.threadId ?? chatId;
    if (!threadId || threadId === '.' || threadId === '..') throw new TypeError(`"${threadId}" is not a thread id`);
    return threadId;
  }

  /**
   * Watches the request's abort signal until the turn is over. The AI SDK aborts it on `stop()`,
   * and also when a newer `resumeStream()` replaces a reconnect; the latter starts its own
   * reconnect in the same tick, which is how the two are told apart.
   */
  private watch(
    threadId: string,
    request: { abortSignal?: AbortSignal | undefined; headers?: Record<string, string> | Headers | undefined },
    kind: 'send' | 'reconnect',
  ) {
    const signal = request.abortSignal;
    const reconnectsBefore = this.reconnects.get(threadId) ?? 0;
    let over = false;
    const onAbort = () => {
      if (over) return;
      over = true;
      const stop = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (kind === 'reconnect' && (this.reconnects.get(threadId) ?? 0) !== reconnectsBefore) return;
        await this.requestStop(threadId, request.headers);
      })();
      const settled = stop.finally(() => {
        if (this.stopping.get(threadId) === settled) this.stopping.delete(threadId);
      });
      this.stopping.set(threadId, settled);
    };
    const release = () => {
      over = true;
      signal?.removeEventListener('abort', onAbort);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    return {
      release,
      through: (stream: ReadableStream<UIMessageChunk>) =>
        stream.pipeThrough(
          new TransformStream<UIMessageChunk, UIMessageChunk>({
            transform(chunk, controller) {
              // After `finish` the turn is over on the server: nothing is left to stop.
              if (chunk.type === 'finish') release();
              controller.enqueue(chunk);
            },
            flush: release,
          }),
        ),
    };
  }

  /** Best effort: if it fails, the turn still ends by itself. */
  private async requestStop(threadId: string, extraHeaders: Record<string, string> | Headers | undefined): Promise<void> {
    try {
      const headers = new Headers(await resolved(this.options.headers));
      new Headers(extraHeaders).forEach((value, key) => headers.set(key, value));
      headers.set('content-type', 'application/json');
      await (this.options.fetch ?? globalThis.fetch)(threadUrl(this.options.wire, threadId, 'stop'), {
        method: 'POST',
        headers,
        body: '{}',
        credentials: (await resolved(this.options.credentials)) ?? 'same-origin',
        keepalive: true,
      });
    } catch {
      // Offline or refused: the turn ends by itself (within its budgets), or after the host's grace if it set one.
    }
  }
}

/** An AI SDK `ChatTransport` for Porter's wire: `useChat({ id: threadId, transport: porterChatTransport({ wire: '/api/porter' }), resume: true })`. */
export function porterChatTransport<M extends UIMessage = UIMessage>(options: PorterChatTransportOptions): PorterChatTransport<M> {
  return new PorterChatTransport<M>(options);
}

/**
 * Everything `useChat` (or `new Chat`) needs for one Porter thread: its id, the transport, and
 * approvals answered with `addToolApprovalResponse` sent as soon as every call of the answer has one.
 * `useChat({ ...porterChatOptions({ wire: '/api/porter', threadId }), resume: true })`.
 */
export function porterChatOptions<M extends UIMessage = UIMessage>(
  options: PorterChatTransportOptions & { readonly threadId: string },
): Required<Pick<ChatInit<M>, 'id' | 'transport' | 'sendAutomaticallyWhen'>> {
  return {
    id: options.threadId,
    transport: porterChatTransport<M>(options),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  };
}
