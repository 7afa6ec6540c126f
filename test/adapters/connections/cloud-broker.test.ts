import { expect } from 'chai';
import { CloudBroker } from '../../../adapters/connections/cloud-broker.js';
import { BrokerUnavailable } from '../../../domain/connections/errors.js';
import { CloudBrokerServer } from '../../support/cloud-broker-server.js';
import { brokerBehaviour, brokerUnderTest, visit } from './broker-behaviour.js';

const secret = 'porter-cloud-connections-key-0123456789';

brokerBehaviour('CloudBroker (docs/connections-cloud-api.md against a local implementation)', () =>
  brokerUnderTest(secret, new CloudBrokerServer(secret), (key, url) => new CloudBroker({ url, key })),
);

describe('CloudBroker specifics', () => {
  let server: CloudBrokerServer;
  let broker: CloudBroker;
  const mine = { connectionId: 'con_01JCLOUD00000001', owner: 'ada', toolkit: 'github' };
  beforeEach(async () => {
    server = new CloudBrokerServer(secret);
    broker = new CloudBroker({ url: await server.start(), key: secret });
  });
  afterEach(() => server.close());

  it('says a toolkit it does not know is not set up, in words rather than a status and a code', async () => {
    const error = await broker.initiate({ ...mine, toolkit: 'jira' }, 'https://host.example/back').then(
      () => expect.fail('initiated'),
      (e: Error) => e,
    );
    expect(error.message).to.equal('The connection broker (cloud) refused: that toolkit is not set up on it');
  });

  it('sends the Porter id as the idempotency key, so a retried start is the same connection', async () => {
    const first = await broker.initiate(mine, 'https://host.example/back');
    const again = await broker.initiate(mine, 'https://host.example/back');
    expect(again.ref).to.equal(first.ref);
    expect(server.connections.size).to.equal(1);
    expect(server.http.seen[0]!.headers['idempotency-key']).to.equal(mine.connectionId);
    expect(server.http.seen[0]!.body).to.deep.equal({
      toolkit: 'github',
      owner: 'ada',
      reference: mine.connectionId,
      callback_url: 'https://host.example/back',
    });
  });

  it('returns the person to the callback with the connection and the outcome', async () => {
    const started = await broker.initiate(mine, 'https://host.example/back');
    const back = new URL((await visit(started.redirectUrl, true)).headers.get('location')!);
    expect(back.searchParams.get('connection')).to.equal(mine.connectionId);
    expect(back.searchParams.get('status')).to.equal('failed');
    expect((await broker.observe({ ...mine, ref: started.ref })).status).to.equal('failed');
  });

  it('does not trust an answer about a different connection, or one that breaks the documented shape', async () => {
    const started = await broker.initiate(mine, 'https://host.example/back');
    const stranger = { ...mine, owner: 'mallory' };
    try {
      await broker.observe({ ...stranger, ref: started.ref });
      expect.fail('a foreign connection was accepted');
    } catch (error) {
      expect(error).to.be.instanceOf(BrokerUnavailable);
    }
    server.http.outage = { status: 200, body: { id: started.ref, status: 'connected' } };
    try {
      await broker.observe({ ...mine, ref: started.ref });
      expect.fail('a malformed answer was accepted');
    } catch (error) {
      expect((error as Error).message).to.contain('does not match the connections API');
    }
  });
});
