import Koa from 'koa';
import type { Server } from 'node:http';
import { createPorter, type Porter } from '../create-porter.js';
import type { PorterOptions } from '../config/porter-options.js';
import { demoPrincipal } from './demo-principal.js';
import { developmentSecret } from './dev-secret.js';
import { demoTools } from './demo-tools.js';
import { demoWebhookSecret } from './demo-webhook.js';
import { developmentOAuth, developmentSignIn } from './dev-oauth.js';
import { serveChrome } from '../chrome.js';

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
      // The MCP door, signed in from the same demo cookie (see dev-oauth.ts).
      mcp: true,
      oauth: developmentOAuth(),
      secret: env.PORTER_SECRET || developmentSecret('.porter/secret'),
      // A self-minted Standard Webhooks source: POST /webhooks/demo, signed with this secret.
      webhooks: { sources: { demo: { kind: 'standard', secret: demoWebhookSecret(env) } } },
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
  app.use(developmentSignIn());
  // The shipped chrome at /, bundled at start; the sign-in control only in development.
  app.use(await serveChrome({ wire: porter.mount, demoSignIn: porter.composition === 'development' }));
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(options.port ?? Number(env.PORT ?? 3000), '127.0.0.1', () => resolve(listening));
    // A port already in use fails the start (the caller says so) instead of crashing the process.
    listening.once('error', reject);
  }).catch(async (error: unknown) => {
    await porter.close();
    throw error;
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
