import type { Server } from 'node:http';
import { inOrder, nodeWebHandler, notFound } from '../../adapters/http/node-chain.js';
import { listen, logUnlessHangUp, stopServer, urlOf } from '../server/listen.js';
import { createPorter, type Porter } from '../create-porter.js';
import { developmentSecret } from './dev-secret.js';
import { demoWebhookSecret } from './demo-webhook.js';
import { developmentSignIn, takesSignIn } from './dev-sign-in.js';
import { serveChrome } from '../chrome.js';
import { brokerFromEnvironment } from '../../adapters/connections/broker-settings.js';
import { DemoBroker } from './demo-broker.js';
import { addDemoKnowledge } from './demo-knowledge.js';
import { checkDevHost, devHostOptions, type DevHostOptions } from './dev-host-options.js';
import { defined } from '../../domain/defined.js';

export { checkDevHost, type DevHostOptions } from './dev-host-options.js';

/** What the development host's chrome offers to try: its demo tools, in words the offline model reads. */
const DEMO_SUGGESTIONS = [
  { label: 'Say hello', text: 'Hello! What can you do?' },
  { label: 'List my notes', text: '/call notes_list {}' },
  { label: 'Add a note', text: '/call notes_add {"text":"Buy milk"}' },
  { label: 'Build an app', text: '/app a reading list with a title, author and a done checkbox' },
  { label: 'Ask the handbook', text: '/knowledge refund cancelled' },
];

export interface DevHost {
  readonly url: string;
  readonly porter: Porter;
  readonly server: Server;
  /** Stops taking connections, gives requests in flight `graceMs` (default 0), then closes Porter. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The host `npm start` runs: a Node server that mounts Porter at /api/porter, serves the
 * shipped chrome at /, and signs people in from a demo cookie or header. NODE_ENV=production
 * selects the production composition; anything else the development one. Only development mints
 * (and keeps in .porter/secret) a signing secret; production needs PORTER_SECRET. Without
 * PORTER_WEBHOOK_DEMO_SECRET, the demo webhook source's minted secret is said once it listens.
 */
export async function startDevHost(options: DevHostOptions = {}): Promise<DevHost> {
  const env = options.env ?? process.env;
  const production = env.NODE_ENV === 'production';
  // Refused here, before a secret is minted or said, a file written, the broker started or the chrome bundled.
  checkDevHost(options);
  const webhook = demoWebhookSecret(env);
  const broker =
    (options.demoBroker ?? (!production && options.porter?.connections === undefined && !brokerFromEnvironment(env).settings))
      ? new DemoBroker()
      : null;
  const brokerUrl = await broker?.start();
  let porter: Porter;
  try {
    porter = await createPorter(
      devHostOptions(options, env, {
        secret: options.porter?.secret ?? (env.PORTER_SECRET || (production ? undefined : developmentSecret('.porter/secret'))),
        webhookSecret: webhook.secret,
        ...defined({ broker: broker && brokerUrl ? { url: brokerUrl, key: broker.key } : undefined }),
      }),
      env,
    );
  } catch (error) {
    await broker?.close();
    throw error;
  }
  const host = options.host ?? '127.0.0.1';
  let server: Server;
  try {
    if (porter.composition === 'development') await addDemoKnowledge(porter);
    // The shipped chrome at /, bundled at start; the sign-in control only in development.
    const chrome = await serveChrome({
      wire: porter.mount,
      demoSignIn: porter.composition === 'development',
      // The offline model knows /call, /app and /knowledge; these try the demo tools with it.
      ...defined({ suggestions: porter.composition === 'development' ? DEMO_SUGGESTIONS : undefined }),
    });
    const listener = inOrder([porter.handle, nodeWebHandler(developmentSignIn, takesSignIn, logUnlessHangUp), chrome.handle], notFound);
    server = await listen(listener, { port: options.port ?? Number(env.PORT ?? 3000), host });
  } catch (error) {
    // A port already in use (or a chrome that does not build) fails the start, and the caller
    // says so, instead of crashing the process or leaving Porter's background work running.
    await porter.close();
    await broker?.close();
    throw error;
  }
  if (webhook.minted) console.log(webhook.minted);
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
