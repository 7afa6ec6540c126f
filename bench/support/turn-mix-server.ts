/**
 * A Porter for the turn mix bench: `node --import tsx bench/support/turn-mix-server.ts '<json>'`.
 * `{root, databaseUrl}`: the built package under `<root>/dist` (this checkout's, or an earlier
 * commit's built by baseline-porter.ts), on the PostgreSQL database `databaseUrl`, answered by the
 * scripted model, with one tool that asks first (`notes_add`, risk `write`). Each caller is the
 * subject its `x-subject` header names. Prints `listening <port>` and answers `GET /cpu` with this
 * process's CPU time in microseconds.
 */
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type * as Porter from '../../composition/index.js';
import type * as PorterTesting from '../../composition/testing.js';

const options = JSON.parse(process.argv[2] ?? '{}') as { root: string; databaseUrl: string };
const built = <T>(path: string) => import(pathToFileURL(join(options.root, 'dist', 'composition', path)).href) as Promise<T>;
const { createPorter, defineTool } = await built<typeof Porter>('index.js');
const { scriptedModel } = await built<typeof PorterTesting>('testing.js');

function cpu(res: ServerResponse): void {
  const usage = process.cpuUsage();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ micros: usage.user + usage.system }));
}

let notes = 0;
const porter = await createPorter(
  {
    principal: (request) => ({ subject: String(request.headers['x-subject'] ?? 'bench'), kind: 'user' }),
    model: scriptedModel(),
    databaseUrl: options.databaseUrl,
    secret: 'b'.repeat(40),
    scheduler: 'external',
    logger: 'error',
    tools: [
      defineTool({
        name: 'notes_add',
        description: 'Add a note.',
        input: z.object({ text: z.string() }),
        risk: 'write',
        execute: async () => ({ count: ++notes }),
      }),
    ],
  },
  {},
);
const server = createServer((req, res) => (req.url === '/cpu' ? cpu(res) : porter.listener(req, res)));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
process.once('SIGTERM', () => process.exit(0));
