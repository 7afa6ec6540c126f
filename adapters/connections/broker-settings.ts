import { defined } from '../../domain/defined.js';
/** Which broker, and how to reach it: the `connections` option's shape. */
export type BrokerSettings =
  | { readonly nango: { readonly secretKey: string; readonly host?: string } }
  | { readonly composio: { readonly apiKey: string; readonly baseUrl?: string } }
  | { readonly cloud: { readonly url: string; readonly key: string } };

export interface EnvironmentBroker {
  /** Raw settings to validate like the option; null when the environment names no broker. */
  readonly settings: Record<string, unknown> | null;
  /** The variables that named it, for error messages. */
  readonly variables: ReadonlyArray<string>;
}

/**
 * The broker the environment names: NANGO_SECRET_KEY (+ NANGO_HOST for a self-hosted Nango),
 * COMPOSIO_API_KEY (+ COMPOSIO_BASE_URL), or PORTER_CONNECTIONS_URL + PORTER_CONNECTIONS_KEY.
 * Naming two is refused rather than guessed at.
 */
export function brokerFromEnvironment(env: NodeJS.ProcessEnv): EnvironmentBroker {
  const set = (name: string) => (env[name] ?? '') !== '';
  const named: Array<{ settings: Record<string, unknown>; variables: string[] }> = [];
  if (set('NANGO_SECRET_KEY')) {
    named.push({
      settings: { nango: { secretKey: env.NANGO_SECRET_KEY, ...defined({ host: set('NANGO_HOST') ? env.NANGO_HOST : undefined }) } },
      variables: ['NANGO_SECRET_KEY', 'NANGO_HOST'],
    });
  }
  if (set('COMPOSIO_API_KEY')) {
    named.push({
      settings: {
        composio: { apiKey: env.COMPOSIO_API_KEY, ...defined({ baseUrl: set('COMPOSIO_BASE_URL') ? env.COMPOSIO_BASE_URL : undefined }) },
      },
      variables: ['COMPOSIO_API_KEY', 'COMPOSIO_BASE_URL'],
    });
  }
  if (set('PORTER_CONNECTIONS_URL') || set('PORTER_CONNECTIONS_KEY')) {
    named.push({
      settings: { cloud: { url: env.PORTER_CONNECTIONS_URL ?? '', key: env.PORTER_CONNECTIONS_KEY ?? '' } },
      variables: ['PORTER_CONNECTIONS_URL', 'PORTER_CONNECTIONS_KEY'],
    });
  }
  if (named.length > 1) {
    throw new Error(
      `the environment names ${named.length} connection brokers (${named.map((n) => n.variables[0]).join(', ')}); set only one`,
    );
  }
  return named[0] ?? { settings: null, variables: [] };
}
