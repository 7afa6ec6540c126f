import { createServer, type IncomingMessage, type Server } from 'node:http';

/** One streamed answer: text in pieces, or tool calls whose arguments arrive in pieces. */
export type CompletionScript =
  | { readonly text: string }
  | { readonly toolCalls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }> }
  /** Streams `text`, then drops the connection mid-answer. */
  | { readonly text: string; readonly dropAfter: true }
  /** Answers with this error status (a provider's 503), saying to retry at once (`retry-after-ms: 1`). */
  | { readonly status: number };

export interface ChatCompletionsServer {
  readonly url: string;
  /** Every request body received, parsed. */
  readonly requests: Array<Record<string, any>>;
  readonly headers: IncomingMessage['headers'][];
  close(): Promise<void>;
}

/**
 * A local server speaking the OpenAI chat-completions streaming protocol (`POST /v1/chat/completions`
 * with `stream: true` → `chat.completion.chunk` events over SSE, ending with `data: [DONE]`), as
 * OpenAI, Ollama, vLLM and llama.cpp do. It answers each request with the next script.
 */
export async function chatCompletionsServer(
  scripts: (request: Record<string, any>, index: number) => CompletionScript,
): Promise<ChatCompletionsServer> {
  const requests: Array<Record<string, any>> = [];
  const headers: IncomingMessage['headers'][] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
    requests.push(body);
    headers.push(req.headers);
    const script = scripts(body, requests.length - 1);
    if ('status' in script) {
      res
        .writeHead(script.status, { 'content-type': 'application/json', 'retry-after-ms': '1' })
        .end(JSON.stringify({ error: { message: `upstream answered ${script.status}`, type: 'server_error' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const base = { id: `chatcmpl-${requests.length}`, object: 'chat.completion.chunk', created: 1_767_225_600, model: body.model };
    const send = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }], ...extra })}\n\n`);
    send({ delta: { role: 'assistant', content: '' }, finish_reason: null });
    if ('toolCalls' in script) {
      script.toolCalls.forEach((call, index) => {
        const half = Math.ceil(call.arguments.length / 2);
        send({
          delta: {
            tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments.slice(0, half) } }],
          },
          finish_reason: null,
        });
        send({ delta: { tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }, finish_reason: null });
      });
      send({ delta: {}, finish_reason: 'tool_calls' });
    } else {
      for (const word of script.text.split(/(?<=\s)/)) send({ delta: { content: word }, finish_reason: null });
      if ('dropAfter' in script) {
        res.socket?.destroy();
        return;
      }
      send({ delta: {}, finish_reason: 'stop' });
    }
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Answers like the development host's scripted model, over the chat-completions protocol: a user
 * text `/call <tool> <json>` calls that tool, a tool result is reported back, anything else is
 * echoed (`echo: <text>`). For hosts in the production composition, whose model comes from
 * `PORTER_MODEL_URL`.
 */
export function scriptedCompletions(request: Record<string, any>, index: number): CompletionScript {
  const messages = request.messages as Array<{ role: string; content: unknown }>;
  const last = messages[messages.length - 1];
  const text = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part: { text?: string }) => part.text ?? '').join('')
        : '';
  if (last?.role === 'tool') return { text: `done: ${text(last.content)}` };
  const said = text(last?.content);
  const call = /^\/call (\S+)\s*(.*)$/s.exec(said);
  if (call) return { toolCalls: [{ id: `call_${index}`, name: call[1]!, arguments: call[2] || '{}' }] };
  return { text: `echo: ${said}` };
}
