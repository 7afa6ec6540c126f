import { expect } from 'chai';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { GuardedEgress } from '../../../adapters/shared/egress/guarded-egress.js';
import { StandardWebhooksSender } from '../../../adapters/webhooks/standard-webhooks-sender.js';
import { webhookReceiver } from '../../support/webhook-receiver.js';

const loopbackAllowed = () => new StandardWebhooksSender(new GuardedEgress({ allow: ['loopback'] }), 2_000);

describe('StandardWebhooksSender', () => {
  it('mints whsec_ secrets and signs what the standardwebhooks package verifies, the body sent as signed', async () => {
    const receiver = await webhookReceiver([202]);
    try {
      const sender = loopbackAllowed();
      const secret = sender.mintSecret();
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(sender.mintSecret()).to.not.equal(secret);
      const body = JSON.stringify({
        type: 'run.completed',
        timestamp: '2026-06-01T12:00:00.000Z',
        data: { runId: 'run_1', summary: 'é ✓' },
      });
      const result = await sender.send({ url: receiver.url, secret, id: 'evt_0000000001', timestamp: new Date(), body });
      expect(result).to.deep.include({ status: 202, error: null, retryable: true });
      const [request] = receiver.received;
      expect(request!.body).to.equal(body);
      expect(request!.headers['content-type']).to.equal('application/json');
      expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).to.deep.equal(JSON.parse(body));
    } finally {
      await receiver.close();
    }
  });

  it('reports a non-2xx answer, a redirect (not followed), a receiver that does not answer in time, and one that is not there', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 3_000);
      if (req.url === '/moved') return void res.writeHead(302, { location: '/elsewhere' }).end();
      res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const sender = new StandardWebhooksSender(new GuardedEgress({ allow: ['loopback'] }), 300);
    const send = (path: string) =>
      sender.send({ url: `http://127.0.0.1:${port}${path}`, secret: sender.mintSecret(), id: 'evt_1', timestamp: new Date(), body: '{}' });
    try {
      expect(await send('/down')).to.deep.include({ status: 503, error: 'The receiver answered 503', retryable: true });
      expect(await send('/moved')).to.deep.include({ status: 302, retryable: true });
      const slow = await send('/slow');
      expect(slow).to.deep.include({ status: null, retryable: true });
      expect(slow.error).to.match(/did not answer within/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    const gone = await send('/nothing-listens');
    expect(gone).to.deep.include({ status: null, retryable: true });
    expect(gone.error).to.match(/could not be reached/);
  });

  it('in production refuses loopback and private receivers, when set and when sending, and never tries again', async () => {
    const strict = new StandardWebhooksSender(new GuardedEgress(), 2_000);
    expect(await strict.refusal('http://127.0.0.1:9/hooks')).to.match(/will not send webhooks to 127\.0\.0\.1.*loopback/);
    expect(await strict.refusal('http://10.1.2.3/hooks')).to.match(/private/);
    expect(await strict.refusal('http://localhost/hooks')).to.match(/loopback/);
    expect(await strict.refusal('ftp://example.com/hooks')).to.match(/http or https/);
    expect(await strict.refusal('https://user:pw@example.com/hooks')).to.match(/credentials/);
    expect(await strict.refusal('https://8.8.8.8/hooks'), 'a public address').to.equal(null);
    const sent = await strict.send({
      url: 'http://127.0.0.1:9/hooks',
      secret: strict.mintSecret(),
      id: 'evt_1',
      timestamp: new Date(),
      body: '{}',
    });
    expect(sent).to.deep.include({ status: null, retryable: false });
    expect(sent.error).to.match(/will not connect/);
  });
});
