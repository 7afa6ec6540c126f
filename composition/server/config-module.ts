import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PorterOptions } from '../config/config-schema.js';

/** The names `porter serve` and `porter sync` look for in the working directory, in this order. */
export const CONFIG_FILES = ['porter.config.ts', 'porter.config.mjs', 'porter.config.js'] as const;

/** A config module that is missing, cannot be imported, or exports nothing usable. */
export class ConfigModuleError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ConfigModuleError';
  }
}

/** The host's config module in `cwd` (porter.config.ts, .mjs or .js), when there is one. */
export function findConfigModule(cwd: string = process.cwd()): string | undefined {
  return CONFIG_FILES.map((name) => resolve(cwd, name)).find((candidate) => existsSync(candidate));
}

/**
 * Imports a host's config module and returns its createPorter options. The module exports them as
 * its default export or as `options`: an object, or a function `(env) => options` (may be async)
 * that receives the environment the command runs with.
 */
export async function loadConfigModule(file: string, env: NodeJS.ProcessEnv): Promise<PorterOptions> {
  const path = resolve(file);
  if (!existsSync(path)) throw new ConfigModuleError(`no config module at ${path}`);
  let loaded: { default?: unknown; options?: unknown };
  try {
    loaded = (await import(pathToFileURL(path).href)) as typeof loaded;
  } catch (error) {
    throw new ConfigModuleError(importFailure(path, error), { cause: error });
  }
  const exported = loaded.default ?? loaded.options;
  let options: unknown;
  try {
    options = typeof exported === 'function' ? await (exported as (env: NodeJS.ProcessEnv) => unknown)(env) : exported;
  } catch (error) {
    throw new ConfigModuleError(`the options function of ${path} threw: ${messageOf(error)}`, { cause: error });
  }
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    const what =
      exported === undefined
        ? 'exports neither a default export nor `options`'
        : typeof exported === 'function'
          ? `returned ${describe(options)}`
          : `exports ${describe(options)}`;
    throw new ConfigModuleError(
      `${path} ${what}: export the createPorter options as the default export (an object, or a function (env) => options), or as \`export const options = { … }\``,
    );
  }
  return options as PorterOptions;
}

/** Node's codes for a TypeScript file it cannot run by itself. */
const NO_TYPESCRIPT = new Set([
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX',
  'ERR_INVALID_TYPESCRIPT_SYNTAX',
  'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING',
]);

function importFailure(path: string, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (['.ts', '.mts', '.cts'].includes(extname(path)) && typeof code === 'string' && NO_TYPESCRIPT.has(code)) {
    return (
      `${path} is TypeScript, and this Node cannot run it without a TypeScript loader (${code}). ` +
      'Compile it to JavaScript (tsc or esbuild) and pass the .js or .mjs file, ' +
      `or run the command with tsx: node --import tsx ./node_modules/.bin/porter <command> --config ${path}`
    );
  }
  return `could not load the config module ${path}: ${messageOf(error)}`;
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${error.message.split('\n')[0]}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return value === undefined ? 'undefined' : `a ${typeof value}`;
}
