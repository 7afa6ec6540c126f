import { configSchema, type PorterConfig } from './config-schema.js';
import type { PorterOptions } from './porter-options.js';
import { PorterConfigError, type PorterConfigIssue } from './porter-config-error.js';
import { optionIssues } from './option-issues.js';

export { PorterConfigError, type PorterConfigIssue } from './porter-config-error.js';

/** Environment variables and the option each one fills when the host did not pass it. */
export const FROM_ENVIRONMENT = {
  PORTER_DATABASE_URL: 'databaseUrl',
  PORTER_BASE_URL: 'baseUrl',
  PORTER_TICK_SECRET: 'tickSecret',
  PORTER_SECRET: 'secret',
} as const;

/**
 * Options from the host win; the environment fills the rest. `NODE_ENV=development` selects the
 * development composition unless the host says `development: false`. `NODE_ENV=production` always
 * needs a signing secret, even for a host that asks for the development composition: nothing
 * mints one in production.
 */
export function loadConfig(options: PorterOptions = {}, env: NodeJS.ProcessEnv = process.env): PorterConfig {
  const merged: Record<string, unknown> = { ...options };
  for (const [variable, option] of Object.entries(FROM_ENVIRONMENT)) {
    const value = env[variable];
    if (merged[option] === undefined && value !== undefined && value !== '') merged[option] = value;
  }
  if (merged.development === undefined) merged.development = env.NODE_ENV === 'development';
  const parsed = configSchema.safeParse(merged);
  const issues: PorterConfigIssue[] = parsed.success
    ? []
    : optionIssues(configSchema, merged, parsed.error.issues).map((issue) => ({
        option: issue.path.length ? optionLabel(issue.path.join('.'), options, env) : '(options)',
        message: issue.message,
      }));
  if (env.NODE_ENV === 'production' && merged.development === true && merged.secret === undefined) {
    issues.push({
      option: 'secret',
      message: 'is required when NODE_ENV=production, also with `development: true`: set PORTER_SECRET (32+ characters)',
    });
  }
  if (issues.length || !parsed.success) throw new PorterConfigError(issues);
  return parsed.data;
}

/**
 * How an error names an option: `databaseUrl (from PORTER_DATABASE_URL)` when the environment
 * filled it, so the operator knows where to look.
 */
export function optionLabel(option: string, options: PorterOptions, env: NodeJS.ProcessEnv): string {
  const top = option.split('.')[0]!;
  const variable = Object.entries(FROM_ENVIRONMENT).find(([, filled]) => filled === top)?.[0];
  const fromEnvironment = variable !== undefined && (options as Record<string, unknown>)[top] === undefined && Boolean(env[variable]);
  return fromEnvironment ? `${option} (from ${variable})` : option;
}
