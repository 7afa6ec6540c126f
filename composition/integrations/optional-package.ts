import { PorterConfigError } from '../config/load-config.js';

/**
 * Porter's optional peer dependencies and the range each is tested with (package.json's
 * `peerDependencies` says the same; a test holds them together). A host installs only those its
 * configuration names; Porter loads each on first use, at boot.
 */
export const OPTIONAL_PACKAGES = {
  '@ai-sdk/anthropic': '^4.0.105',
  '@ai-sdk/openai': '^4.0.118',
  '@ai-sdk/openai-compatible': '^3.0.92',
  '@auth/core': '^0.41.0',
  '@aws-sdk/client-s3': '^3.1169.0',
  '@aws-sdk/lib-storage': '^3.1169.0',
  '@composio/core': '^0.19.0',
  '@mikro-orm/postgresql': '6.6.16',
  '@nangohq/node': '^0.71.10',
  e2b: '^2.51.0',
  'pg-boss': '^12.38.0',
} as const;

export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/**
 * Loads the module that needs an optional package. When the package itself is missing, boot fails
 * with a configuration error that names the option that asked for it and the install command;
 * any other failure (a broken install, an error in the module) passes through unchanged.
 */
export async function importOptional<T>(name: OptionalPackage | (string & {}), option: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingPackage(error, name)) throw error;
    throw new PorterConfigError([missingPackageIssue(option, name)], { cause: error });
  }
}

/** The configuration issue for an optional package that is not installed: the option, and what to install. */
export function missingPackageIssue(option: string, name: string): { option: string; message: string } {
  const range = (OPTIONAL_PACKAGES as Record<string, string>)[name];
  return { option, message: `needs the package ${name}, which is not installed: npm install ${range ? `${name}@'${range}'` : name}` };
}

/** Node's own error for a bare import whose package is not installed (any subpath of it too). */
export function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && typeof message === 'string' && message.includes(`'${name}'`);
}
