/**
 * A server process for the per-turn CPU bench: `node --import tsx bench/support/turn-cpu-server.ts '<json>'`.
 * Both kinds serve `POST /threads` (a new thread, `{id}`) and `POST /threads/:id/turn` (the AI SDK
 * UI message stream of a zero-latency model answering `tokens` words) on the PostgreSQL database
 * `databaseUrl`, each caller the subject its `x-subject` header names. `{kind: 'porter'}` is Porter's
 * wire (under its default mount, /api/porter); `{kind: 'bare'}` is the AI SDK alone beside the `pg` driver Porter's
 * store uses: it stores the thread, reads its history, stores the user message, streams
 * `streamText`, and stores the answer when the stream finishes, as a chat server must. Both print
 * `listening <port>` and answer `GET /cpu` with this process's CPU time in microseconds. Porter is
 * loaded from `dist/` (see built-porter.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { convertToModelMessages, streamText, type UIMessage } from 'ai';
import type { createPorter as CreatePorter } from '../../composition/create-porter.js';
import { BUILT_ENTRY } from './built-porter.js';
import { zeroLatencyModel } from './quiet-model.js';

const options = JSON.parse(process.argv[2] ?? '{}') as { kind: 'porter' | 'bare'; databaseUrl: string; tokens: number };

function cpu(res: ServerResponse): void {
  const usage = process.cpuUsage();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ micros: usage.user + usage.system }));
}

async function porterHandler(): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
  // The built package, as a host runs it (the bench builds it first).
  const { createPorter } = (await import(BUILT_ENTRY)) as { createPorter: typeof CreatePorter };
  const porter = await createPorter(
    {
      principal: (request) => ({ subject: String(request.headers['x-subject'] ?? 'bench'), kind: 'user' }),
      model: zeroLatencyModel(options.tokens),
      databaseUrl: options.databaseUrl,
      secret: 'b'.repeat(40),
      scheduler: 'external',
      logger: 'error',
    },
    {},
  );
  return porter.listener;
}

async function bareHandler(): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
  await pool.query(
    `create table if not exists threads (id text primary key, owner text not null, created_at timestamptz not null default now())`,
  );
  await pool.query(
    `create table if not exists messages (id text primary key, thread_id text not null references threads(id), position serial, message jsonb not null)`,
  );
  await pool.query(`create index if not exists messages_thread on messages (thread_id, position)`);
  const model = zeroLatencyModel(options.tokens);
  const body = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { message?: UIMessage };
  };
  return (req, res) => {
    void (async () => {
      const owner = String(req.headers['x-subject'] ?? 'bench');
      if (req.url === '/threads') {
        await body(req);
        const id = randomUUID();
        await pool.query('insert into threads (id, owner) values ($1, $2)', [id, owner]);
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
        return;
      }
      const threadId = /^\/threads\/([^/]+)\/turn$/.exec(req.url ?? '')?.[1];
      const { message } = await body(req);
      const owned = threadId ? await pool.query('select 1 from threads where id = $1 and owner = $2', [threadId, owner]) : null;
      if (!threadId || !message || !owned?.rowCount) {
        res.writeHead(404).end();
        return;
      }
      const history = await pool.query<{ message: UIMessage }>('select message from messages where thread_id = $1 order by position', [
        threadId,
      ]);
      await pool.query('insert into messages (id, thread_id, message) values ($1, $2, $3)', [message.id, threadId, message]);
      const messages = [...history.rows.map((row) => row.message), message];
      const result = streamText({ model, messages: await convertToModelMessages(messages) });
      result.pipeUIMessageStreamToResponse(res, {
        originalMessages: messages,
        generateMessageId: randomUUID,
        onFinish: async ({ responseMessage }) => {
          await pool.query('insert into messages (id, thread_id, message) values ($1, $2, $3)', [
            responseMessage.id,
            threadId,
            responseMessage,
          ]);
        },
      });
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  };
}

const handle = options.kind === 'porter' ? await porterHandler() : await bareHandler();
const server = createServer((req, res) => (req.url === '/cpu' ? cpu(res) : handle(req, res)));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
process.once('SIGTERM', () => process.exit(0));
