import type { Server } from 'node:http';
import type { Porter } from '../create-porter.js';
import { findConfigModule, loadConfigModule } from '../server/config-module.js';
import { EXIT, UsageError, type CliIo } from './cli-io.js';
import type { Command } from './main.js';
import { defined } from '../../domain/defined.js';

/** How long requests in flight may take to finish after SIGINT or SIGTERM. */
const GRACE_MS = 10_000;

interface Running {
  readonly url: string;
  readonly porter: Porter;
  readonly server: Server;
  close(graceMs?: number): Promise<void>;
}

/** `porter serve`: a host's own Porter from its config module, or the demo host; until a signal. */
export const serveCommand: Command = {
  name: 'serve',
  summary: "serve Porter from the host's config module (--config), or the demo host",
  help: `Usage: porter serve [--config <file> | --demo] [--port <n>] [--host <address>] [--database <url>] [--chrome]

With a config module, serves Porter with exactly the options it exports, on a plain Node HTTP
server: the wire at the options' mount (default /api/porter), the MCP discovery documents at the
origin root, and the shipped chrome at / with --chrome. The module's default export (or its
\`options\` export) is the createPorter options object, or a function (env) => options (may be async).
Without --config, ./porter.config.ts, .mjs or .js is used when present.

Without a config module (or with --demo), runs the demo host: demo tools, the demo sign-in
(porter_demo_user cookie or x-demo-user header, trusted as is), the MCP door and the chrome at /.
NODE_ENV=production selects the production composition; there the demo host runs only with --demo.

A TypeScript config module runs as is under this command; under a Node without a TypeScript loader,
compile it to .js/.mjs or run: node --import tsx ./node_modules/.bin/porter serve --config <file>.ts

Production (NODE_ENV=production, or options without development: true) needs PORTER_SECRET (or the
\`secret\` option), 32+ characters: nothing is minted. In development the demo host keeps a minted
secret in .porter/secret.

SIGINT or SIGTERM stops taking connections, gives requests in flight ${GRACE_MS / 1000} s to finish (a
second signal cuts them), closes Porter (background work, the store) and exits 0.

Options:
  --config <file>     the host's config module (default: ./porter.config.ts, .mjs or .js if present)
  --demo              run the demo host even where a config module is present
  --port <n>          port to listen on (default: $PORT, else 3000; 0 picks a free one)
  --host <address>    interface to bind (default: $HOST, else 127.0.0.1, this machine only);
                      in a container, or to accept other machines, pass --host 0.0.0.0 (or HOST=0.0.0.0)
  --database <url>    sqlite:<file>, sqlite::memory: or postgres://… for this run; wins over the
                      config module and $PORTER_DATABASE_URL (default sqlite:.porter/porter.db)
  --chrome            also serve the shipped chrome at / (the demo host always does)

Environment: NODE_ENV, PORTER_SECRET, PORTER_DATABASE_URL, PORTER_BASE_URL, PORT, HOST, and the
variables in docs/configuration.md (model, connections, sandbox).`,
  options: {
    config: { type: 'string', short: 'c' },
    demo: { type: 'boolean' },
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    database: { type: 'string' },
    chrome: { type: 'boolean' },
  },
  async run(values, positionals, io) {
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.demo && typeof values.config === 'string') throw new UsageError('--demo and --config exclude each other');
    const port = portOf(values.port, io.env.PORT);
    const host = hostOf(values.host, io.env.HOST);
    const database = typeof values.database === 'string' ? values.database : undefined;
    const env: NodeJS.ProcessEnv = { ...io.env, ...defined({ PORTER_DATABASE_URL: database }) };
    const config = typeof values.config === 'string' ? values.config : values.demo ? undefined : findConfigModule();

    let running: Running;
    try {
      if (config) {
        io.err(`porter serve: starting Porter from ${config}…`);
        const options = { ...(await loadConfigModule(config, env)) };
        if (database !== undefined) options.databaseUrl = database;
        const { startPorterServer } = await import('../server/porter-server.js');
        running = await startPorterServer(options, env, { port, host, chrome: Boolean(values.chrome) });
      } else {
        if (!values.demo && io.env.NODE_ENV === 'production') {
          throw new UsageError(
            'no config module here (looked for ./porter.config.ts, .mjs and .js): pass --config <file>, ' +
              'or --demo to run the demo host in production (its sign-in trusts a header: never expose it)',
          );
        }
        // Loaded here, not at the top: `porter --help` should not load the whole runtime. A
        // configuration the demo host cannot start with (production without PORTER_SECRET) is
        // refused first, before anything is said, minted or started.
        const { checkDevHost } = await import('../dev-host/dev-host-options.js');
        checkDevHost({ env, port, host });
        io.err('porter serve: starting the development host (opening the store, bundling the chrome)…');
        const { startDevHost } = await import('../dev-host/dev-host.js');
        running = await startDevHost({ env, port, host });
      }
    } catch (error) {
      const refused = listenRefusal(error as NodeJS.ErrnoException & { hostname?: string }, port, host);
      if (!refused) throw error;
      io.err(`porter serve: ${refused}`);
      return EXIT.usage;
    }

    if (!config && running.porter.composition === 'production') {
      io.err(
        'porter serve: --demo in production signs in anyone who sends an x-demo-user header or a porter_demo_user cookie: never expose it',
      );
    }
    if (running.porter.composition === 'production' && isLoopback(host)) {
      io.err(`porter serve: bound to ${host}, so only this machine can connect; in a container pass --host 0.0.0.0 (or HOST=0.0.0.0)`);
    }
    return untilSignal(running, io, () =>
      io.out(`Porter ${running.porter.composition} host listening on ${running.url} (wire at ${running.url}${running.porter.mount})`),
    );
  },
};

/**
 * Serves until SIGINT or SIGTERM, then stops gracefully; a second signal cuts what is in flight.
 * `ready` is said once the signals are handled: a supervisor that stops the server as soon as it
 * reads that line must not find Node's default handling (an abrupt exit) still in place.
 */
function untilSignal(running: Running, io: CliIo, ready: () => void): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        io.err(`porter serve: ${signal} again, closing every connection now…`);
        running.server.closeAllConnections();
        return;
      }
      stopping = true;
      io.err(`porter serve: ${signal}, stopping (requests in flight have ${GRACE_MS / 1000} s to finish)…`);
      running.close(GRACE_MS).then(
        () => {
          io.err('porter serve: stopped');
          done(EXIT.ok);
        },
        (error: unknown) => {
          io.err(`porter serve: stopping failed: ${error instanceof Error ? error.message : String(error)}`);
          done(EXIT.failed);
        },
      );
    };
    const done = (code: number) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(code);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    ready();
  });
}

/** Digits only: Number() would read "" as 0 (a random port) and "0x50" as 80. */
function portOf(flag: string | boolean | undefined, variable: string | undefined): number {
  const [raw, name] =
    typeof flag === 'string' ? [flag, '--port'] : variable !== undefined && variable !== '' ? [variable, 'PORT'] : ['3000', '--port'];
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(port) || port > 65535) throw new UsageError(`${name} must be a port number (0-65535), not "${raw}"`);
  return port;
}

function hostOf(flag: string | boolean | undefined, variable: string | undefined): string {
  const host = typeof flag === 'string' ? flag : variable || '127.0.0.1';
  if (!/^[A-Za-z0-9.:_-]+$/.test(host))
    throw new UsageError(`--host must be an address or host name such as 127.0.0.1 or 0.0.0.0, not "${host}"`);
  return host;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** What to say when the server could not listen; null for any other failure. */
function listenRefusal(error: NodeJS.ErrnoException & { hostname?: string }, port: number, host: string): string | null {
  if (error?.code === 'EADDRINUSE') return `port ${port} is already in use; pass --port <n> (or 0 for any free port)`;
  if (error?.code === 'EACCES') return `port ${port} needs privileges this process does not have; pass --port <n> above 1023`;
  if (error?.code === 'EADDRNOTAVAIL' || (error?.code === 'ENOTFOUND' && error.syscall === 'getaddrinfo' && error.hostname === host)) {
    return `--host ${host} is not an address of this machine; use 127.0.0.1, or 0.0.0.0 for every interface`;
  }
  return null;
}
