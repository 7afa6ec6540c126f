import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';

export interface ReadTurn {
  readonly status: number;
  readonly headers: Headers;
  /** The raw SSE text, to check framing (`data: [DONE]`). */
  readonly raw: string;
  readonly chunks: UIMessageChunk[];
  /** The assistant message as a stock AI SDK reader builds it. */
  readonly message: UIMessage;
}

/**
 * Reads a turn response the way a stock AI SDK client does: the SSE body parsed with the SDK's
 * own event-stream parser and chunk schema, folded by `readUIMessageStream`.
 */
export async function readTurn(response: Response, previous?: UIMessage): Promise<ReadTurn> {
  if (!response.ok) throw new Error(`turn failed with ${response.status}: ${await response.text()}`);
  const raw = await response.text();
  const chunks: UIMessageChunk[] = [];
  const parsed = parseJsonEventStream({ stream: new Response(raw).body!, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(result, controller) {
        if (!result.success) throw result.error;
        chunks.push(result.value as UIMessageChunk);
        controller.enqueue(result.value as UIMessageChunk);
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const state of readUIMessageStream({
    stream: parsed,
    ...(previous ? { message: previous } : {}),
    terminateOnError: false,
    onError: () => undefined,
  }))
    message = state;
  if (!message) throw new Error('the turn produced no message');
  return { status: response.status, headers: response.headers, raw, chunks, message };
}

/** A small client for the wire as a signed-in (or anonymous) person. */
export class WireClient {
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  as(user: string): WireClient {
    return new WireClient(this.base, { ...this.headers, 'x-demo-user': user });
  }

  async json<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; headers: Headers }> {
    const response = await this.send(method, path, body);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
  }

  send(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${this.base}${path}`, {
      method,
      headers: { ...(body !== undefined || method !== 'GET' ? { 'content-type': 'application/json' } : {}), ...this.headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }

  async newThread(): Promise<string> {
    const created = await this.json<{ id: string }>('POST', '/threads', {});
    if (created.status !== 201) throw new Error(`could not create a thread: ${created.status}`);
    return created.body.id;
  }

  async say(threadId: string, text: string): Promise<ReadTurn> {
    return readTurn(await this.send('POST', `/threads/${threadId}/turn`, { message: { role: 'user', parts: [{ type: 'text', text }] } }));
  }

  async continueTurn(threadId: string, previous?: UIMessage): Promise<ReadTurn> {
    return readTurn(await this.send('POST', `/threads/${threadId}/turn`, { continue: true }), previous);
  }
}

/** A part of a UI message, loosely typed for assertions. */
export type Part = Record<string, any>;

/** The tool part for `tool` in a message, if any. */
export const toolPart = (message: UIMessage, tool: string) => message.parts.find((p) => p.type === `tool-${tool}`) as Part | undefined;

/** The text a message says, its text parts joined. */
export const textOf = (message: UIMessage) =>
  message.parts
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('');

/** Reads a streamed answer's raw bytes until `needle` has been seen (the rest stays unread). */
export async function readUntil(response: Response, needle: string): Promise<void> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  while (!seen.includes(needle)) {
    const next = await reader.read();
    if (next.done) throw new Error(`the stream ended before "${needle}"`);
    seen += decoder.decode(next.value, { stream: true });
  }
}
