import { z } from 'zod';
import { connectionsSchema, type PorterConfig } from '../config/config-schema.js';
import { PorterConfigError } from '../config/load-config.js';
import type { ConnectionBroker } from '../../ports/connections.js';
import { brokerFromEnvironment, type BrokerSettings } from '../../adapters/connections/broker-settings.js';
import { CloudBroker } from '../../adapters/connections/cloud-broker.js';
import { importOptional, type OptionalPackage } from './optional-package.js';

/**
 * The connection broker the options or the environment name, or null (`connections: false`, and
 * the routes answer 501). Nango's and Composio's SDKs are optional packages, loaded only for them.
 */
export async function loadBroker(config: PorterConfig, env: NodeJS.ProcessEnv): Promise<ConnectionBroker | null> {
  const settings = brokerSettings(config, env);
  if (!settings) return null;
  if ('nango' in settings) {
    const { NangoBroker } = await brokerSdk('@nangohq/node', () => import('../../adapters/connections/nango-broker.js'));
    return new NangoBroker(settings.nango);
  }
  if ('composio' in settings) {
    const { ComposioBroker } = await brokerSdk('@composio/core', () => import('../../adapters/connections/composio-broker.js'));
    return new ComposioBroker(settings.composio);
  }
  return new CloudBroker(settings.cloud);
}

/** A broker's SDK, an optional package the `connections` option asks for. */
function brokerSdk<T>(name: OptionalPackage, load: () => Promise<T>): Promise<T> {
  return importOptional(name, 'connections', load);
}

/** The `connections` option when the host passed one, else what the environment names; checked alike. */
function brokerSettings(config: PorterConfig, env: NodeJS.ProcessEnv): BrokerSettings | null {
  if (config.connections !== undefined) return config.connections || null;
  let named: ReturnType<typeof brokerFromEnvironment>;
  try {
    named = brokerFromEnvironment(env);
  } catch (error) {
    throw new PorterConfigError([{ option: 'connections', message: (error as Error).message }]);
  }
  if (!named.settings) return null;
  // Checked against the one branch the environment chose, so the message names the bad field.
  const chosen = Object.keys(named.settings)[0]!;
  const branch = connectionsSchema.options.find(
    (option): option is Exclude<typeof option, z.ZodLiteral<false>> => option instanceof z.ZodObject && chosen in option.shape,
  );
  const parsed = (branch ?? connectionsSchema).safeParse(named.settings);
  if (!parsed.success) {
    throw new PorterConfigError(
      parsed.error.issues.map((issue) => ({
        option: `connections (from ${named.variables.join(' / ')})`,
        message: `${issue.path.join('.') || 'value'} ${issue.message}`,
      })),
    );
  }
  return (parsed.data as BrokerSettings | false) || null;
}
