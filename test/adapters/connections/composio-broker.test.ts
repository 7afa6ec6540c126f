import { expect } from 'chai';
import { ComposioBroker } from '../../../adapters/connections/composio-broker.js';
import { ComposioBrokerServer } from '../../support/composio-broker-server.js';
import { brokerBehaviour, brokerUnderTest, visit } from './broker-behaviour.js';

const secret = 'composio-api-key-for-tests-0123456789';

brokerBehaviour('ComposioBroker (@composio/core against a local Composio)', () =>
  brokerUnderTest(secret, new ComposioBrokerServer(secret), (key, url) => new ComposioBroker({ apiKey: key, baseUrl: url })),
);

describe('ComposioBroker specifics', function () {
  this.timeout(20_000);
  let server: ComposioBrokerServer;
  let broker: ComposioBroker;
  const mine = { connectionId: 'con_01JCOMPOSIO0001', owner: 'ada', toolkit: 'github' };
  beforeEach(async () => {
    server = new ComposioBrokerServer(secret);
    broker = new ComposioBroker({ apiKey: secret, baseUrl: await server.start() });
  });
  afterEach(() => server.close());

  it("links through the toolkit's enabled auth config with the callback URL, and the consent page returns there", async () => {
    const started = await broker.initiate(mine, 'https://host.example/back?tab=connections');
    const sent = server.http.seen.find((r) => r.path === '/api/v3.1/connected_accounts/link')!;
    expect(sent.headers['x-api-key']).to.equal(secret);
    expect(sent.body).to.deep.include({
      auth_config_id: server.authConfigs[0]!.id,
      user_id: 'ada',
      callback_url: 'https://host.example/back?tab=connections',
    });
    expect(started.ref).to.match(/^ca_/);
    const back = await visit(started.redirectUrl);
    expect(back.status).to.equal(302);
    const location = new URL(back.headers.get('location')!);
    expect(location.origin + location.pathname).to.equal('https://host.example/back');
    expect(location.searchParams.get('status')).to.equal('success');
  });

  it("lets a second account of the same toolkit start (Porter decides, not the SDK's guard)", async () => {
    const first = await broker.initiate(mine, 'https://host.example/back');
    await visit(first.redirectUrl);
    const second = await broker.initiate({ ...mine, connectionId: 'con_01JCOMPOSIO0002' }, 'https://host.example/back');
    expect(second.ref).to.not.equal(first.ref);
  });

  it('maps refusal to failed and a revoked or disabled account to expired', async () => {
    const refused = await broker.initiate(mine, 'https://host.example/back');
    await visit(refused.redirectUrl, true);
    expect((await broker.observe({ ...mine, ref: refused.ref })).status).to.equal('failed');
    const revoked = await broker.initiate({ ...mine, connectionId: 'con_01JCOMPOSIO0003' }, 'https://host.example/back');
    await visit(revoked.redirectUrl);
    server.setStatus(revoked.ref!, 'REVOKED');
    expect((await broker.observe({ ...mine, ref: revoked.ref })).status).to.equal('expired');
    server.setStatus(revoked.ref!, 'INACTIVE');
    expect((await broker.observe({ ...mine, ref: revoked.ref })).status).to.equal('expired');
  });

  it('refuses a toolkit whose auth config is disabled', async () => {
    server.authConfigs[0]!.status = 'DISABLED';
    try {
      await broker.initiate(mine, 'https://host.example/back');
      expect.fail('initiate should have been refused');
    } catch (error) {
      expect((error as Error).message).to.contain('no enabled auth config for toolkit "github"');
    }
  });
});
