import type { PorterConfig, PorterOptions } from './config-schema.js';
import { optionLabel, PorterConfigError } from './load-config.js';
import { openStore, type OpenStoreOptions } from '../../adapters/store/open-store.js';
import { parseDatabaseUrl } from '../../adapters/store/database-url.js';
import { describeOpenFailure } from '../../adapters/store/open-failure.js';
import { MissingDriver } from '../../adapters/store/missing-driver.js';
import { missingPackageIssue } from '../integrations/optional-package.js';
import type { Store } from '../../ports/store.js';

/**
 * Opens the store `databaseUrl` names. A database that cannot be opened at boot is a configuration
 * error naming the option (and the variable it came from), the engine and the host and port or
 * file tried, never the URL itself; the driver's error stays as the cause.
 */
export async function openConfiguredStore(
  config: PorterConfig,
  options: PorterOptions,
  env: NodeJS.ProcessEnv,
  open: OpenStoreOptions,
): Promise<Store> {
  try {
    return await openStore(config.databaseUrl, open);
  } catch (error) {
    // The PostgreSQL driver is an optional package: name it, as every other optional package is named.
    if (error instanceof MissingDriver)
      throw new PorterConfigError([missingPackageIssue(optionLabel('databaseUrl', options, env), error.packageName)], { cause: error });
    const location = parseDatabaseUrl(config.databaseUrl);
    if (location.engine === 'memory') throw error;
    throw new PorterConfigError([{ option: optionLabel('databaseUrl', options, env), message: describeOpenFailure(location, error) }], {
      cause: error,
    });
  }
}
