import { configSchema, type PorterConfig } from './config-schema.js';
import type { PorterOptions } from './porter-options.js';

/** Thrown at boot when the options and environment do not make a valid deployment. */
export class PorterConfigError extends Error {
  constructor(readonly issues: ReadonlyArray<{ option: string; message: string }>) {
    super(`Invalid Porter configuration:\n${issues.map((i) => `  - ${i.option}: ${i.message}`).join('\n')}`);
    this.name = 'PorterConfigError';
  }
}

/** Environment variables and the option each one fills when the host did not pass it. */
const FROM_ENVIRONMENT = {
  PORTER_DATABASE_URL: 'databaseUrl',
  PORTER_BASE_URL: 'baseUrl',
  PORTER_TICK_SECRET: 'tickSecret',
  PORTER_SECRET: 'secret',
} as const;

/**
 * Options from the host win; the environment fills the rest. `NODE_ENV=development` selects the
 * development composition unless the host says `development: false`.
 */
export function loadConfig(options: PorterOptions = {}, env: NodeJS.ProcessEnv = process.env): PorterConfig {
  const merged: Record<string, unknown> = { ...options };
  const fromEnvironment = new Map<string, string>();
  for (const [variable, option] of Object.entries(FROM_ENVIRONMENT)) {
    const value = env[variable];
    if (merged[option] === undefined && value !== undefined && value !== '') {
      merged[option] = value;
      fromEnvironment.set(option, variable);
    }
  }
  if (merged.development === undefined) merged.development = env.NODE_ENV === 'development';
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    throw new PorterConfigError(
      parsed.error.issues.map((issue) => {
        const option = issue.path.length ? issue.path.join('.') : '(options)';
        const variable = fromEnvironment.get(String(issue.path[0]));
        return { option: variable ? `${option} (from ${variable})` : option, message: issue.message };
      }),
    );
  }
  return parsed.data;
}
