import { loadConfig } from '../config/load-config.js';
import type { PorterOptions } from '../config/porter-options.js';
import { demoPrincipal } from './demo-principal.js';
import { demoTools } from './demo-tools.js';
import { developmentOAuth } from './dev-oauth.js';
import { demoCalendarTool } from './demo-broker.js';
import { limitsFromEnvironment } from './dev-limits.js';
import { defined } from '../../domain/defined.js';

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

/** What the host adds once it made them, each making a side effect: the signing secret, the webhook secret, the demo broker. */
export interface DevHostParts {
  readonly secret?: PorterOptions['secret'];
  readonly webhookSecret?: string;
  readonly broker?: { readonly url: string; readonly key: string };
}

/** The development host's Porter options; the caller's `porter` options win. */
export function devHostOptions(options: DevHostOptions, env: NodeJS.ProcessEnv, made: DevHostParts): PorterOptions {
  // Budgets to try by hand (PORTER_LIMITS, JSON); bad JSON stops the start with the variable named.
  const limits = options.porter?.limits ?? limitsFromEnvironment(env);
  return {
    development: env.NODE_ENV !== 'production',
    principal: demoPrincipal,
    tools: [...demoTools(), ...(made.broker ? [demoCalendarTool()] : [])],
    ...defined({ connections: made.broker ? { cloud: made.broker } : undefined }),
    // The MCP door, signed in from the same demo cookie (see dev-oauth.ts).
    mcp: true,
    oauth: developmentOAuth(),
    // The chrome is served at / (dev-host.ts): a door call waiting for the person names its pages.
    door: { chromeUrl: '/' },
    ...defined({ secret: made.secret }),
    // A self-minted Standard Webhooks source: POST /webhooks/demo, signed with this secret.
    ...defined({
      webhooks: made.webhookSecret ? { sources: { demo: { kind: 'standard' as const, secret: made.webhookSecret } } } : undefined,
      limits,
    }),
    ...options.porter,
  };
}

/**
 * Refuses options the development host cannot start with (in production, no PORTER_SECRET) with
 * the PorterConfigError createPorter would throw, before anything is minted, said, written,
 * started or bundled: the options checked lack only the parts whose making has a side effect, and
 * those are Porter's own and valid. Light to load, so `porter serve` refuses before it says it starts.
 */
export function checkDevHost(options: DevHostOptions = {}): void {
  const env = options.env ?? process.env;
  loadConfig(devHostOptions(options, env, {}), env);
}
