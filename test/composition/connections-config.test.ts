import { expect } from 'chai';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { PorterConfigError } from '../../composition/config/load-config.js';
import type { PorterOptions } from '../../composition/config/config-schema.js';
import { get } from '../../composition/tokens.js';
import { SYSTEM_TOKENS } from '../../composition/modules/system-tokens.js';
import { containerOf } from '../../composition/porter-container.js';

const base: PorterOptions = {
  development: true,
  databaseUrl: 'sqlite::memory:',
  logger: 'silent',
  secret: 'a-development-secret-for-the-tests-0123456789',
};

async function connectionsBlock(options: PorterOptions, env: NodeJS.ProcessEnv): Promise<unknown> {
  const porter: Porter = await createPorter({ ...base, ...options }, env);
  try {
    return (await get(containerOf(porter), SYSTEM_TOKENS.SystemUseCases).getStatus.execute()).blocks.connections;
  } finally {
    await porter.close();
  }
}

async function configError(options: PorterOptions, env: NodeJS.ProcessEnv): Promise<PorterConfigError> {
  try {
    await (await createPorter({ ...base, ...options }, env)).close();
  } catch (error) {
    if (error instanceof PorterConfigError) return error;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('Choosing the connection broker (createPorter)', function () {
  this.timeout(20_000);

  it('is off unless the environment or the options name a broker', async () => {
    expect(await connectionsBlock({}, {})).to.equal(false);
  });

  it('follows the environment: Nango and Composio are "byo", the connections API is "cloud"', async () => {
    expect(await connectionsBlock({}, { NANGO_SECRET_KEY: 'k', NANGO_HOST: 'http://127.0.0.1:3003' })).to.equal('byo');
    expect(await connectionsBlock({}, { NANGO_SECRET_KEY: 'k' })).to.equal('byo');
    expect(await connectionsBlock({}, { COMPOSIO_API_KEY: 'k' })).to.equal('byo');
    expect(await connectionsBlock({}, { PORTER_CONNECTIONS_URL: 'https://connections.example', PORTER_CONNECTIONS_KEY: 'k' })).to.equal(
      'cloud',
    );
  });

  it("lets the host's option win over the environment, including turning connections off", async () => {
    expect(await connectionsBlock({ connections: false }, { NANGO_SECRET_KEY: 'k' })).to.equal(false);
    expect(
      await connectionsBlock({ connections: { cloud: { url: 'https://connections.example', key: 'k' } } }, { NANGO_SECRET_KEY: 'k' }),
    ).to.equal('cloud');
  });

  it('refuses an environment that names two brokers, instead of guessing', async () => {
    const error = await configError({}, { NANGO_SECRET_KEY: 'k', COMPOSIO_API_KEY: 'k' });
    expect(error.message).to.contain('connections').and.contain('set only one');
  });

  it("names the variable and the field when the environment's broker settings are wrong", async () => {
    const badHost = await configError({}, { NANGO_SECRET_KEY: 'k', NANGO_HOST: 'not a url' });
    expect(badHost.message)
      .to.contain('connections (from NANGO_SECRET_KEY / NANGO_HOST)')
      .and.contain('nango.host must be the Nango server URL');
    const noKey = await configError({}, { PORTER_CONNECTIONS_URL: 'https://connections.example' });
    expect(noKey.message).to.contain('PORTER_CONNECTIONS_KEY').and.contain('cloud.key');
    expect(noKey.message).to.not.contain('"k"');
  });

  it('refuses an option of the wrong shape', async () => {
    const error = await configError({ connections: { nango: { secretKey: 'k', extra: true } } as never }, {});
    expect(error.message).to.contain('connections');
  });
});
