/**
 * A server process for the stream benches: `node --expose-gc --import tsx bench/support/stream-server.ts '<json>'`.
 * `{kind: 'porter', databaseUrl}` serves Porter's wire (the clock model, every caller signed in as
 * `bench`); `{kind: 'bare'}` serves the AI SDK alone: `streamText(clock model)` piped as a UI message stream
 * for every request, the prompt taken from the `x-prompt` header. It prints `listening <port>`, and
 * answers `GET /memory` (after a full GC) with its heap and resident size in bytes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeUIMessageStreamToResponse, streamText, toUIMessageStream } from 'ai';
import { createPorter } from '../../composition/create-porter.js';
import { ClockModel } from './clock-model.js';

const options = JSON.parse(process.argv[2] ?? '{}') as { kind: 'porter' | 'bare'; databaseUrl?: string; keepAliveSeconds?: number };

function memory(res: ServerResponse): void {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ heap: usage.heapUsed + usage.external, rss: usage.rss }));
}

let handle: (req: IncomingMessage, res: ServerResponse) => void;
if (options.kind === 'porter') {
  const porter = await createPorter(
    {
      principal: () => ({ subject: 'bench', kind: 'user' }),
      // A thousand live turns of one subject is what this measures, not what a person may run.
      maxTurnsInFlight: false,
      model: new ClockModel(),
      databaseUrl: options.databaseUrl ?? 'memory:',
      secret: 'b'.repeat(40),
      scheduler: 'external',
      logger: 'error',
      ...(options.keepAliveSeconds ? { keepAliveSeconds: options.keepAliveSeconds } : {}),
    },
    {},
  );
  handle = porter.listener;
} else {
  const model = new ClockModel();
  handle = (req, res) => {
    const prompt = String(req.headers['x-prompt'] ?? 'clock 10 50');
    req.resume();
    pipeUIMessageStreamToResponse({ response: res, stream: toUIMessageStream({ stream: streamText({ model, prompt }).stream }) });
  };
}
const server = createServer((req, res) => (req.url === '/memory' ? memory(res) : handle(req, res)));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
process.once('SIGTERM', () => process.exit(0));
