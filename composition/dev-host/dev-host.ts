import Koa from 'koa';
import type { Server } from 'node:http';
import { createPorter, type Porter } from '../create-porter.js';
import type { PorterOptions } from '../config/config-schema.js';
import { demoPrincipal } from './demo-principal.js';
import { developmentSecret } from './dev-secret.js';
import { demoTools } from './demo-tools.js';

export interface DevHostOptions {
  /** Port to listen on; 0 picks a free one. */
  readonly port?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Extra Porter options (tests use them to swap the store or the model). */
  readonly porter?: PorterOptions;
}

export interface DevHost {
  readonly url: string;
  readonly porter: Porter;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * The host `npm start` runs: a Koa application that mounts Porter at /api/porter, serves the
 * shipped chrome at /, and signs people in from a demo cookie or header. NODE_ENV=production
 * selects the production composition; anything else the development one.
 */
export async function startDevHost(options: DevHostOptions = {}): Promise<DevHost> {
  const env = options.env ?? process.env;
  const porter = await createPorter(
    {
      development: env.NODE_ENV !== 'production',
      principal: demoPrincipal,
      tools: demoTools(),
      secret: env.PORTER_SECRET || developmentSecret('.porter/secret'),
      ...options.porter,
    },
    env,
  );
  const app = new Koa();
  app.on('error', (error: NodeJS.ErrnoException) => {
    // A browser that closes a stream mid-turn is ordinary; anything else is worth a line.
    if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET' && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') console.error(error);
  });
  app.use(porter.koa);
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path !== '/') return next();
    ctx.type = 'html';
    ctx.body = landingPage(porter.mount);
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(options.port ?? Number(env.PORT ?? 3000), '127.0.0.1', () => resolve(listening));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}`,
    porter,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await porter.close();
    },
  };
}

function landingPage(mount: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Porter</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Porter development host</h1><p>The wire is mounted at <code>${mount}</code>.
Try <a href="${mount}/status">${mount}/status</a>.</p></main></body></html>`;
}
