import Koa from 'koa';
import type { Server } from 'node:http';
import { listen, logUnlessHangUp, stopServer, urlOf } from '../server/listen.js';
import { createPorter, type Porter } from '../create-porter.js';
import type { PorterOptions } from '../config/porter-options.js';
import { demoPrincipal } from './demo-principal.js';
import { developmentSecret } from './dev-secret.js';
import { demoTools } from './demo-tools.js';
import { demoWebhookSecret } from './demo-webhook.js';
import { developmentOAuth, developmentSignIn } from './dev-oauth.js';
import { serveChrome } from '../chrome.js';
import { brokerFromEnvironment } from '../../adapters/connections/broker-settings.js';
import { DemoBroker, demoCalendarTool } from './demo-broker.js';
import { limitsFromEnvironment } from './dev-limits.js';

/** What the development host's chrome offers to try: its demo tools, in words the offline model reads. */
const DEMO_SUGGESTIONS = [
  { label: 'Say hello', text: 'Hello! What can you do?' },
  { label: 'List my notes', text: '/call notes_list {}' },
  { label: 'Add a note', text: '/call notes_add {"text":"Buy milk"}' },
  { label: 'Build an app', text: '/app a reading list with a title, author and a done checkbox' },
];

export interface DevHostOptions {
  /** Port to listen on; 0 picks a free one. Default: $PORT, else 3000. */
  readonly port?: number;
  /** Interface to bind. Default 127.0.0.1: the demo sign-in trusts a header, so this machine only. */
  readonly host?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Extra Porter options (tests use them to swap the store or the model). */
  readonly porter?: PorterOptions;
  /**
   * Run the demo connection broker (demo-broker.ts) and connect to it, so the Connections page
   * works end to end. Default: in development, when neither the options nor the environment name
   * a broker.
   */
  readonly demoBroker?: boolean;
}

export interface DevHost {
  readonly url: string;
  readonly porter: Porter;
  readonly server: Server;
  /** Stops taking connections, gives requests in flight `graceMs` (default 0), then closes Porter. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The host `npm start` runs: a Koa application that mounts Porter at /api/porter, serves the
 * shipped chrome at /, and signs people in from a demo cookie or header. NODE_ENV=production
 * selects the production composition; anything else the development one. Only development mints
 * (and keeps in .porter/secret) a signing secret; production needs PORTER_SECRET.
 */
export async function startDevHost(options: DevHostOptions = {}): Promise<DevHost> {
  const env = options.env ?? process.env;
  const production = env.NODE_ENV === 'production';
  // Budgets to try by hand (PORTER_LIMITS, JSON); read before anything starts, so bad JSON stops here.
  const limits = options.porter?.limits ?? limitsFromEnvironment(env);
  const broker =
    (options.demoBroker ?? (!production && options.porter?.connections === undefined && !brokerFromEnvironment(env).settings))
      ? new DemoBroker()
      : null;
  const brokerUrl = await broker?.start();
  let porter: Porter;
  try {
    porter = await createPorter(
      {
        development: !production,
        principal: demoPrincipal,
        tools: [...demoTools(), ...(broker ? [demoCalendarTool()] : [])],
        ...(broker && brokerUrl ? { connections: { cloud: { url: brokerUrl, key: broker.key } } } : {}),
        // The MCP door, signed in from the same demo cookie (see dev-oauth.ts).
        mcp: true,
        oauth: developmentOAuth(),
        secret: options.porter?.secret ?? (env.PORTER_SECRET || (production ? undefined : developmentSecret('.porter/secret'))),
        // A self-minted Standard Webhooks source: POST /webhooks/demo, signed with this secret.
        webhooks: { sources: { demo: { kind: 'standard', secret: demoWebhookSecret(env) } } },
        ...(limits ? { limits } : {}),
        ...options.porter,
      },
      env,
    );
  } catch (error) {
    await broker?.close();
    throw error;
  }
  const host = options.host ?? '127.0.0.1';
  let server: Server;
  try {
    const app = new Koa();
    app.on('error', logUnlessHangUp);
    app.use(porter.koa);
    app.use(developmentSignIn());
    // The shipped chrome at /, bundled at start; the sign-in control only in development.
    app.use(
      await serveChrome({
        wire: porter.mount,
        demoSignIn: porter.composition === 'development',
        // The offline model knows /call and /app; these try the demo tools with it.
        ...(porter.composition === 'development' ? { suggestions: DEMO_SUGGESTIONS } : {}),
      }),
    );
    server = await listen(app.callback(), { port: options.port ?? Number(env.PORT ?? 3000), host });
  } catch (error) {
    // A port already in use (or a chrome that does not build) fails the start, and the caller
    // says so, instead of crashing the process or leaving Porter's background work running.
    await porter.close();
    await broker?.close();
    throw error;
  }
  return {
    url: urlOf(server, host),
    porter,
    server,
    async close(graceMs = 0) {
      await stopServer(server, graceMs);
      await porter.close();
      await broker?.close();
    },
  };
}
