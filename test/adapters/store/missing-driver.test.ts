import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { MissingDriver, type ModuleImporter } from '../../../adapters/store/missing-driver.js';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { ManualClock } from '../../support/manual-clock.js';

/** An importer for a host where the named packages are not installed, as Node reports it. */
function without(...missing: string[]): ModuleImporter {
  return async (specifier) => {
    const absent = missing.find((name) => specifier === name || specifier.startsWith(`${name}/`));
    if (absent)
      throw Object.assign(new Error(`Cannot find package '${absent}' imported from ${fileURLToPath(import.meta.url)}`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    return import(specifier);
  };
}

async function openFailure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return expect.fail('expected the store to refuse to open');
}

describe('store drivers that are not installed', () => {
  const postgres = { engine: 'postgresql', url: 'postgres://porter@127.0.0.1:1/porter' } as const;

  it('says which package to install when a postgres:// URL meets a host without the PostgreSQL driver', async () => {
    const error = await openFailure(
      MikroOrmStore.open({ target: postgres, clock: new ManualClock(), importDriver: without('@mikro-orm/postgresql') }),
    );
    expect(error).to.be.instanceOf(MissingDriver);
    expect(error).to.include({ code: 'missing-package', packageName: '@mikro-orm/postgresql' });
    expect((error as Error).message).to.equal(
      'databaseUrl is a postgres:// URL but the PostgreSQL driver is not installed: npm install @mikro-orm/postgresql@6.6.16',
    );
  });

  it('reports the driver, not its dependency, when the driver is there but pg is not', async () => {
    const importer: ModuleImporter = async () => {
      throw Object.assign(new Error("Cannot find module 'pg'"), { code: 'MODULE_NOT_FOUND' });
    };
    const error = await openFailure(MikroOrmStore.open({ target: postgres, clock: new ManualClock(), importDriver: importer }));
    expect(error).to.be.instanceOf(MissingDriver);
    expect((error as MissingDriver).packageName).to.equal('@mikro-orm/postgresql');
    expect((error as Error).cause).to.have.property('code', 'MODULE_NOT_FOUND');
  });

  it('says which package to install when the SQLite driver is missing', async () => {
    const error = await openFailure(
      MikroOrmStore.open({
        target: { engine: 'sqlite', file: ':memory:' },
        clock: new ManualClock(),
        importDriver: without('@mikro-orm/libsql'),
      }),
    );
    expect(error).to.include({ code: 'missing-package', packageName: '@mikro-orm/libsql' });
    expect((error as Error).message).to.equal(
      'databaseUrl is a sqlite: URL but the SQLite driver is not installed: npm install @mikro-orm/libsql@6.6.16',
    );
  });

  it('passes any other import failure through as it is', async () => {
    const broken: ModuleImporter = async () => {
      throw new SyntaxError('Unexpected token');
    };
    const error = await openFailure(MikroOrmStore.open({ target: postgres, clock: new ManualClock(), importDriver: broken }));
    expect(error).to.be.instanceOf(SyntaxError);
  });

  it('opens SQLite without ever loading the PostgreSQL driver', async () => {
    const store = await MikroOrmStore.open({
      target: { engine: 'sqlite', file: ':memory:' },
      clock: new ManualClock(),
      importDriver: without('@mikro-orm/postgresql', 'pg'),
    });
    try {
      expect((await store.records('x').put({ id: 'a', data: 1 })).revision).to.equal(1);
    } finally {
      await store.close();
    }
  });

  it('opens SQLite and memory stores in a process where the PostgreSQL packages cannot be resolved at all', async function () {
    this.timeout(60_000);
    // A resolve hook refuses @mikro-orm/postgresql and pg, as on a host that never installed them:
    // any static import of either on the way to openStore would fail the whole module graph.
    const hooks =
      'export async function resolve(specifier, context, next) { if (/^(@mikro-orm\\/postgresql|pg)(\\/|$)/.test(specifier)) ' +
      "{ throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' }); } return next(specifier, context); }";
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
    const openStoreUrl = pathToFileURL(fileURLToPath(new URL('../../../adapters/store/open-store.ts', import.meta.url))).href;
    const script = `
      const { openStore } = await import(${JSON.stringify(openStoreUrl)});
      const clock = { now: () => new Date() };
      const kinds = [];
      for (const url of ['sqlite::memory:', 'memory:']) {
        const store = await openStore(url, { clock });
        await store.records('x').put({ id: 'a', data: 1 });
        kinds.push(store.kind);
        await store.close();
      }
      const refused = await openStore('postgres://porter@127.0.0.1:1/porter', { clock }).then(() => null, (error) => ({ code: error.code, message: error.message }));
      console.log(JSON.stringify({ kinds, refused }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script],
      { cwd: process.cwd() },
    );
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).to.deep.equal({
      kinds: ['sqlite', 'memory'],
      refused: {
        code: 'missing-package',
        message: 'databaseUrl is a postgres:// URL but the PostgreSQL driver is not installed: npm install @mikro-orm/postgresql@6.6.16',
      },
    });
  });
});
