import { expect } from 'chai';
import { NangoBroker } from '../../../adapters/connections/nango-broker.js';
import { NangoBrokerServer } from '../../support/nango-broker-server.js';
import { brokerBehaviour, brokerUnderTest, visit } from './broker-behaviour.js';

const secret = 'nango-secret-key-for-tests-0123456789';

brokerBehaviour('NangoBroker (@nangohq/node against a local Nango)', () =>
  brokerUnderTest(secret, new NangoBrokerServer(secret), (key, url) => new NangoBroker({ secretKey: key, host: url })),
);

describe('NangoBroker specifics', () => {
  let server: NangoBrokerServer;
  let broker: NangoBroker;
  beforeEach(async () => {
    server = new NangoBrokerServer(secret);
    broker = new NangoBroker({ secretKey: secret, host: await server.start() });
  });
  afterEach(() => server.close());

  it('tags the connect session with the Porter id and owner, limited to the one integration', async () => {
    const started = await broker.initiate(
      { connectionId: 'con_01JNANGO000001', owner: 'ada', toolkit: 'slack' },
      'https://host.example/back',
    );
    expect(started.ref).to.equal(null);
    expect(Date.parse(started.expiresAt!)).to.be.greaterThan(Date.now());
    const sent = server.http.seen.find((r) => r.path === '/connect/sessions')!;
    expect(sent.headers.authorization).to.equal(`Bearer ${secret}`);
    expect(sent.body).to.deep.equal({
      tags: { end_user_id: 'ada', porter_connection: 'con_01JNANGO000001' },
      allowed_integrations: ['slack'],
    });
  });

  it('finds the finished connection by tag, and only when the tag names the same owner', async () => {
    const started = await broker.initiate(
      { connectionId: 'con_01JNANGO000002', owner: 'ada', toolkit: 'github' },
      'https://host.example/back',
    );
    await visit(started.redirectUrl);
    expect((await broker.observe({ connectionId: 'con_01JNANGO000002', owner: 'ada', toolkit: 'github', ref: null })).status).to.equal(
      'active',
    );
    expect((await broker.observe({ connectionId: 'con_01JNANGO000002', owner: 'mallory', toolkit: 'github', ref: null })).status).to.equal(
      'initiated',
    );
  });

  it("reads an abandoned consent as still initiated (Porter's deadline expires it), and a broken token as failed", async () => {
    const abandoned = await broker.initiate(
      { connectionId: 'con_01JNANGO000003', owner: 'ada', toolkit: 'github' },
      'https://host.example/back',
    );
    await visit(abandoned.redirectUrl, true);
    expect((await broker.observe({ connectionId: 'con_01JNANGO000003', owner: 'ada', toolkit: 'github', ref: null })).status).to.equal(
      'initiated',
    );
    const started = await broker.initiate(
      { connectionId: 'con_01JNANGO000004', owner: 'ada', toolkit: 'github' },
      'https://host.example/back',
    );
    await visit(started.redirectUrl);
    const { ref } = await broker.observe({ connectionId: 'con_01JNANGO000004', owner: 'ada', toolkit: 'github', ref: null });
    server.breakAuth(ref!);
    expect((await broker.observe({ connectionId: 'con_01JNANGO000004', owner: 'ada', toolkit: 'github', ref })).status).to.equal('failed');
  });

  it('removes a finished connection nobody polled yet, found by its tag', async () => {
    const started = await broker.initiate(
      { connectionId: 'con_01JNANGO000005', owner: 'ada', toolkit: 'github' },
      'https://host.example/back',
    );
    await visit(started.redirectUrl);
    expect(server.connections.size).to.equal(1);
    await broker.remove({ connectionId: 'con_01JNANGO000005', owner: 'ada', toolkit: 'github', ref: null });
    expect(server.connections.size).to.equal(0);
  });

  it("forwards the tool's headers the way Nango's proxy expects them", async () => {
    const started = await broker.initiate(
      { connectionId: 'con_01JNANGO000006', owner: 'ada', toolkit: 'github' },
      'https://host.example/back',
    );
    await visit(started.redirectUrl);
    const { ref } = await broker.observe({ connectionId: 'con_01JNANGO000006', owner: 'ada', toolkit: 'github', ref: null });
    const answer = await broker.request(
      { connectionId: 'con_01JNANGO000006', owner: 'ada', toolkit: 'github', ref: ref! },
      { method: 'GET', path: '/user', headers: { accept: 'application/vnd.github+json' } },
    );
    expect((answer.body as { headers: Record<string, string> }).headers).to.deep.include({ accept: 'application/vnd.github+json' });
  });
});
