import { expect } from 'chai';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPorter } from '../../composition/create-porter.js';
import { PorterConfigError } from '../../composition/config/load-config.js';
import type { PorterOptions } from '../../composition/config/config-schema.js';
import { freePort } from '../support/http-server.js';
import { postgresServerUrl } from '../support/postgres.js';

const SECRET = 'a-secret-that-is-long-enough-for-cookies-0123456789';

/** The boot failure createPorter answers with; the test fails if it boots. */
async function bootFailure(options: PorterOptions, env: NodeJS.ProcessEnv = {}): Promise<PorterConfigError> {
  try {
    const porter = await createPorter({ secret: SECRET, logger: 'silent', ...options }, env);
    await porter.close();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(PorterConfigError);
    return error as PorterConfigError;
  }
  return expect.fail('expected createPorter to refuse to boot');
}

describe('createPorter with a database it cannot open', function () {
  this.timeout(30_000);

  it('a closed port: names databaseUrl and the variable it came from, the engine, host and port, never the password', async () => {
    const port = await freePort();
    const error = await bootFailure({}, { PORTER_DATABASE_URL: `postgres://porter:hunter2-the-password@127.0.0.1:${port}/porter` });
    expect(error.issues).to.have.length(1);
    expect(error.issues[0]!.option).to.equal('databaseUrl (from PORTER_DATABASE_URL)');
    expect(error.message).to.contain(
      `databaseUrl (from PORTER_DATABASE_URL): could not connect to PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED`,
    );
    expect(error.message).to.not.contain('hunter2').and.not.contain('postgres://');
    // The driver's own error stays reachable for a log, as the cause.
    expect(error.cause).to.be.instanceOf(Error);
  });

  it('an option (not the environment) is named as the option alone', async () => {
    const port = await freePort();
    const error = await bootFailure({ databaseUrl: `postgresql://127.0.0.1:${port}/porter` }, { PORTER_DATABASE_URL: 'sqlite::memory:' });
    expect(error.issues[0]!.option).to.equal('databaseUrl');
    expect(error.message).to.contain(`could not connect to PostgreSQL at 127.0.0.1:${port}`);
  });

  it('a host name that does not resolve says so', async () => {
    const error = await bootFailure({ databaseUrl: 'postgres://porter:pw@porter-db.invalid:6543/porter' });
    expect(error.message).to.match(/databaseUrl: could not connect to PostgreSQL at porter-db\.invalid:6543 \((ENOTFOUND|EAI_AGAIN)/);
    expect(error.message).to.not.contain(':pw@');
  });

  describe('on the test PostgreSQL', () => {
    let server: URL;
    before(async function () {
      const url = await postgresServerUrl();
      if (!url) return this.skip();
      server = new URL(url);
    });

    it('a role that does not exist: authentication failed for that user, with host and port', async () => {
      const url = new URL(server);
      url.username = 'porter_no_such_role';
      url.password = 'not-the-password';
      const error = await bootFailure({}, { PORTER_DATABASE_URL: url.toString() });
      expect(error.message).to.contain(
        `databaseUrl (from PORTER_DATABASE_URL): authentication failed for user "porter_no_such_role" on PostgreSQL at ${server.hostname}:${server.port || 5432}`,
      );
      expect(error.message).to.not.contain('not-the-password');
    });

    it('a database that does not exist: says which, and that Porter does not create databases', async () => {
      const url = new URL(server);
      url.pathname = '/porter_no_such_database';
      const error = await bootFailure({ databaseUrl: url.toString() });
      expect(error.message).to.contain(
        `databaseUrl: the database "porter_no_such_database" does not exist on PostgreSQL at ${server.hostname}:${server.port || 5432}`,
      );
      expect(error.message).to.contain('create it first');
    });
  });

  describe('SQLite', () => {
    let folder: string;
    beforeEach(async () => {
      folder = await mkdtemp(join(tmpdir(), 'porter-store-boot-'));
    });
    afterEach(async () => {
      await chmod(folder, 0o700).catch(() => undefined);
      await rm(folder, { recursive: true, force: true });
    });

    it('a file in a folder that cannot be created names the folder and why', async () => {
      await writeFile(join(folder, 'taken'), 'a file, not a folder');
      const file = join(folder, 'taken', 'data', 'porter.db');
      const error = await bootFailure({}, { PORTER_DATABASE_URL: `sqlite:${file}` });
      expect(error.message).to.contain(`databaseUrl (from PORTER_DATABASE_URL): could not create the folder`);
      expect(error.message).to.contain(`for the SQLite database ${file} (`);
      expect(error.message).to.match(/\((ENOTDIR|EEXIST): /);
    });

    it('a file in a read-only folder cannot be opened, and says so', async function () {
      // root writes through a folder's mode bits; there, sysfs stands in as a folder nobody writes.
      let readOnly = folder;
      if (process.getuid?.() === 0) {
        if (
          !(await stat('/sys').then(
            (s) => s.isDirectory(),
            () => false,
          ))
        )
          return this.skip();
        readOnly = '/sys';
      } else {
        await chmod(folder, 0o500);
      }
      const file = join(readOnly, 'porter.db');
      const error = await bootFailure({ databaseUrl: `sqlite:${file}` });
      expect(error.message).to.contain(`databaseUrl: could not open the SQLite database ${file} (SQLITE_CANTOPEN`);
    });

    it('a path that is a folder cannot be opened either', async () => {
      const error = await bootFailure({ databaseUrl: `sqlite:${folder}` });
      expect(error.message).to.contain(`could not open the SQLite database ${folder} (SQLITE_CANTOPEN`);
    });
  });

  it('a URL Porter does not understand is refused before anything opens, without echoing it', async () => {
    const error = await bootFailure({}, { PORTER_DATABASE_URL: 'mysql://root:hunter2@db/porter' });
    expect(error.message).to.contain('databaseUrl (from PORTER_DATABASE_URL): is not a database URL Porter understands');
    expect(error.message).to.not.contain('hunter2');
  });
});
