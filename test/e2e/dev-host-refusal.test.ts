import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { checkDevHost, startDevHost } from '../../composition/dev-host/dev-host.js';
import { PorterConfigError } from '../../composition/config/load-config.js';
import { scratchFolder } from '../support/scratch-folder.js';

const SECRET = 'a-development-secret-for-the-tests-0123456789';

/** Runs `work` with console.log captured (the development host says a minted webhook secret there). */
async function capturingLog<T>(work: () => Promise<T>): Promise<{ result: T | Error; said: string[] }> {
  const said: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => void said.push(parts.map(String).join(' '));
  try {
    return { result: await work().catch((error: unknown) => error as Error), said };
  } finally {
    console.log = original;
  }
}

describe('the development host refuses what it cannot start with before anything happens', function () {
  this.timeout(30_000);
  const folder = scratchFolder('porter-dev-host-refusal-', { each: true });

  it('production without PORTER_SECRET: the PorterConfigError naming secret, and no webhook secret minted or said, nothing written', async () => {
    const env = { NODE_ENV: 'production', PORTER_DATABASE_URL: `sqlite:${join(folder.path(), 'porter.db')}` };
    const { result, said } = await capturingLog(() => startDevHost({ port: 0, env, porter: { logger: 'silent' } }));
    expect(result).to.be.instanceOf(PorterConfigError);
    expect((result as PorterConfigError).issues).to.deep.equal([
      {
        option: 'secret',
        message:
          'is required in production: set PORTER_SECRET (32+ characters) so anonymous-session cookies survive restarts and instances',
      },
    ]);
    expect(said).to.deep.equal([]);
    expect(await readdir(folder.path())).to.deep.equal([]);
    // The same refusal, on its own, for a caller that wants it before saying anything (porter serve).
    expect(() => checkDevHost({ env })).to.throw(PorterConfigError, 'secret: is required in production');
  });

  it('a host that starts says its minted webhook secret once it listens', async () => {
    const env = { NODE_ENV: 'development', PORTER_DATABASE_URL: 'sqlite::memory:' };
    expect(() => checkDevHost({ env, porter: { secret: SECRET } })).to.not.throw();
    const { result, said } = await capturingLog(() => startDevHost({ port: 0, env, porter: { logger: 'silent', secret: SECRET } }));
    if (result instanceof Error) throw result;
    try {
      expect(said).to.have.length(1);
      expect(said[0]).to.match(
        /^PORTER_WEBHOOK_DEMO_SECRET is not set; the demo webhook source accepts deliveries signed with whsec_\S+ until restart$/,
      );
    } finally {
      await result.close();
    }
  });
});
