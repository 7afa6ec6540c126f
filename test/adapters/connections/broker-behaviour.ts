import { expect } from 'chai';
import { BrokerRefused, BrokerUnavailable } from '../../../domain/connections/errors.js';
import type { BrokerAccount, ConnectionBroker } from '../../../ports/connections.js';
import type { BrokerHttp } from '../../support/broker-http.js';
import { rejection } from '../../support/outcomes.js';

export interface BrokerUnderTest {
  readonly broker: ConnectionBroker;
  /** A broker built with a wrong key, against the same server. */
  readonly wrongKey: ConnectionBroker;
  readonly http: BrokerHttp;
  /** The key the broker was given: it must never surface in an error. */
  readonly secret: string;
  close(): Promise<void>;
}

const callback = 'https://host.example/settings/connections';

/** What a person does in the browser: open the broker's page (and follow it back to the host). */
export async function visit(redirectUrl: string, refuse = false): Promise<Response> {
  const url = new URL(redirectUrl);
  if (refuse) url.searchParams.set('refuse', '1');
  return fetch(url, { redirect: 'manual' });
}

/** A local server speaking a broker's protocol. */
export interface BrokerServer {
  readonly http: BrokerHttp;
  /** Answers its URL. */
  start(): Promise<string>;
  close(): Promise<void>;
}

/** The broker under test against `server`, keyed with `secret`, and one keyed wrongly. */
export async function brokerUnderTest(
  secret: string,
  server: BrokerServer,
  connect: (key: string, url: string) => ConnectionBroker,
): Promise<BrokerUnderTest> {
  const url = await server.start();
  return { broker: connect(secret, url), wrongKey: connect('not-the-key', url), http: server.http, secret, close: () => server.close() };
}

/** Behaviour every ConnectionBroker adapter shows against a server speaking its protocol. */
export function brokerBehaviour(name: string, open: () => Promise<BrokerUnderTest>) {
  describe(`${name}: the ConnectionBroker behaviour`, function () {
    this.timeout(20_000);
    let under: BrokerUnderTest;
    let n = 0;
    const account = (toolkit = 'github'): Omit<BrokerAccount, 'ref'> => ({
      connectionId: `con_01JTEST${String(++n).padStart(8, '0')}`,
      owner: 'ada@example.com',
      toolkit,
    });

    beforeEach(async () => {
      under = await open();
    });
    afterEach(async () => {
      await under.close();
    });

    it('initiates with a consent page on the broker, then reports the outcome once the person consents', async () => {
      const mine = account();
      const started = await under.broker.initiate(mine, callback);
      expect(started.redirectUrl.startsWith(under.http.url)).to.equal(true);
      expect((await under.broker.observe({ ...mine, ref: started.ref })).status).to.equal('initiated');
      expect((await visit(started.redirectUrl)).status).to.be.oneOf([200, 302]);
      const seen = await under.broker.observe({ ...mine, ref: started.ref });
      expect(seen).to.deep.include({ status: 'active' });
      expect(seen.ref).to.be.a('string').and.not.equal('');
    });

    it("calls the provider through the broker as the account, passing the provider's answer on", async () => {
      const mine = account();
      const started = await under.broker.initiate(mine, callback);
      await visit(started.redirectUrl);
      const { ref } = await under.broker.observe({ ...mine, ref: started.ref });
      const answer = await under.broker.request(
        { ...mine, ref: ref! },
        { method: 'POST', path: '/repos/porter/issues', query: { per_page: '5' }, body: { title: 'hello' } },
      );
      expect(answer.status).to.equal(200);
      expect(answer.body).to.deep.include({
        provider: 'github',
        account: ref,
        method: 'POST',
        path: '/repos/porter/issues',
        body: { title: 'hello' },
      });
      expect((answer.body as { query: object }).query).to.deep.include({ per_page: '5' });
      expect(answer.headers['x-provider']).to.equal('github');
      expect(answer.headers).to.not.have.property('set-cookie');
      const missing = await under.broker.request({ ...mine, ref: ref! }, { method: 'GET', path: '/missing' });
      expect(missing.status).to.equal(404);
    });

    it('removes the account at the broker; the account then reads as expired, and removing again succeeds', async () => {
      const mine = account();
      const started = await under.broker.initiate(mine, callback);
      await visit(started.redirectUrl);
      const { ref } = await under.broker.observe({ ...mine, ref: started.ref });
      await under.broker.remove({ ...mine, ref });
      expect((await under.broker.observe({ ...mine, ref })).status).to.equal('expired');
      await under.broker.remove({ ...mine, ref });
    });

    it('refuses a toolkit the broker does not know, saying so', async () => {
      const error = await rejection(under.broker.initiate(account('not-set-up'), callback));
      expect(error).to.be.instanceOf(BrokerRefused);
    });

    it('lists the toolkits it is set up to connect, each with a name to show', async () => {
      const toolkits = await under.broker.toolkits();
      expect(toolkits.map((t) => t.toolkit).sort()).to.deep.equal(['github', 'slack']);
      for (const t of toolkits) expect(t.name).to.be.a('string').and.not.equal('');
    });

    it('reports a broker that is down as unavailable, and never puts its key in an error', async () => {
      under.http.outage = { status: 503, body: { error: { code: 'unavailable', message: 'maintenance' } } };
      const error = await rejection(under.broker.initiate(account(), callback));
      expect(error).to.be.instanceOf(BrokerUnavailable);
      expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).to.not.contain(under.secret);
    });

    it("reports a wrong key as unavailable (not the caller's fault), without the key", async () => {
      const error = await rejection(under.wrongKey.initiate(account(), callback));
      expect(error).to.be.instanceOf(BrokerUnavailable);
      expect(error.message).to.contain('401');
      expect(`${error.message} ${JSON.stringify(error)}`).to.not.contain(under.secret);
    });
  });
}
