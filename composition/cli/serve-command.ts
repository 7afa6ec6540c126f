import type { DevHost } from '../dev-host/dev-host.js';
import { EXIT, UsageError } from './cli-io.js';
import type { Command } from './main.js';

/** `porter serve`: the development host `npm start` runs, until Ctrl-C (or SIGTERM). */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the development host (the wire at /api/porter, the chrome at /)',
  help: `Usage: porter serve [--port <n>] [--database <url>]

Runs the development host: Porter mounted at /api/porter with demo tools, the demo sign-in
(porter_demo_user cookie or x-demo-user header), the MCP door and the shipped chrome at /.
NODE_ENV=production selects the production composition instead.

Options:
  --port <n>        port to listen on (default: $PORT, else 3000; 0 picks a free one)
  --database <url>  sqlite:<file>, sqlite::memory: or postgres://… (default: $PORTER_DATABASE_URL,
                    else sqlite:.porter/porter.db)

Environment: PORTER_SECRET, PORTER_BASE_URL, OPENAI_API_KEY / ANTHROPIC_API_KEY / PORTER_MODEL_URL,
NANGO_SECRET_KEY (+ NANGO_HOST) / COMPOSIO_API_KEY / PORTER_CONNECTIONS_URL (+ PORTER_CONNECTIONS_KEY).`,
  options: { port: { type: 'string', short: 'p' }, database: { type: 'string' } },
  async run(values, positionals, io) {
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    // Digits only: Number() would read "" as 0 (a random port) and "0x50" as 80.
    const port = values.port === undefined ? undefined : /^\d{1,5}$/.test(values.port as string) ? Number(values.port) : NaN;
    if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError('--port must be a port number (0-65535)');
    const env: NodeJS.ProcessEnv = { ...io.env, ...(typeof values.database === 'string' ? { PORTER_DATABASE_URL: values.database } : {}) };
    io.err('porter serve: starting the development host (opening the store, bundling the chrome)…');
    // Loaded here, not at the top: `porter --help` should not load the whole runtime.
    const { startDevHost } = await import('../dev-host/dev-host.js');
    let host: DevHost;
    try {
      host = await startDevHost({ env, ...(port !== undefined ? { port } : {}) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        io.err(`porter serve: port ${port ?? env.PORT ?? 3000} is already in use; pass --port <n> (or 0 for any free port)`);
        return EXIT.usage;
      }
      throw error;
    }
    io.out(`Porter ${host.porter.composition} host listening on ${host.url} (wire at ${host.url}${host.porter.mount})`);
    return new Promise<number>((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        io.err(`porter serve: ${signal}, stopping…`);
        void host.close().then(
          () => resolve(EXIT.ok),
          (error: unknown) => {
            io.err(`porter serve: stopping failed: ${error instanceof Error ? error.message : String(error)}`);
            resolve(EXIT.failed);
          },
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  },
};
