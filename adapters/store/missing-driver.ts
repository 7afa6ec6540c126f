/**
 * A database driver package the configured store needs is not installed (the PostgreSQL driver is
 * an optional peer dependency). The code and packageName are stable so the host's boot can report
 * it as a configuration problem and say what to install.
 */
export class MissingDriver extends Error {
  readonly code = 'missing-package';

  constructor(
    /** The package to install, e.g. `@mikro-orm/postgresql`. */
    readonly packageName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MissingDriver';
  }
}

/** Loads a module by name; `import()` unless a test hands in another. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

export const importModule: ModuleImporter = (specifier) => import(specifier);

/**
 * Imports a driver package, turning "not installed" (the package itself, or one it depends on,
 * cannot be found) into a MissingDriver with the given message. Any other failure is rethrown.
 */
export async function importDriver<M>(packageName: string, message: string, importer: ModuleImporter = importModule): Promise<M> {
  try {
    return (await importer(packageName)) as M;
  } catch (error) {
    if (isModuleNotFound(error)) throw new MissingDriver(packageName, message, { cause: error });
    throw error;
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
