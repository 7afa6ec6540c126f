import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedCertificate } from '../../../support/self-signed.js';
import { createServer as createHttpsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { IncomingMessage } from 'node:http';
import { GuardedEgress } from '../../../../adapters/shared/egress/guarded-egress.js';
import { EgressGuard, type NameLookup } from '../../../../adapters/shared/egress/egress-guard.js';
import { EgressRefused } from '../../../../domain/guard/egress.js';
import { serve, type RunningServer } from '../../../support/http-server.js';

/** A resolver from a table, counting how often each name is asked. */
function tableLookup(table: Record<string, string | string[] | ((asked: number) => string)>) {
  const asked = new Map<string, number>();
  const lookup: NameLookup = async (name) => {
    const count = (asked.get(name) ?? 0) + 1;
    asked.set(name, count);
    const answer = table[name];
    if (answer === undefined) throw Object.assign(new Error(`${name} is not in the table`), { code: 'ENOTFOUND' });
    return typeof answer === 'function' ? [answer(count)] : typeof answer === 'string' ? [answer] : answer;
  };
  return { lookup, asked };
}

async function refusal(promise: Promise<unknown>): Promise<EgressRefused> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EgressRefused)) throw new Error(`expected an egress refusal, got ${String(error)}`);
  return error;
}

describe("the egress guard's fetch", () => {
  let server: RunningServer;
  let port: string;
  const seen: IncomingMessage[] = [];
  let answer: (request: IncomingMessage) => { status?: number; headers?: Record<string, string>; body?: string | Buffer } = () => ({
    body: 'hello',
  });

  before(async () => {
    server = await serve((request, response) => {
      seen.push(request);
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        (request as IncomingMessage & { text?: string }).text = Buffer.concat(chunks).toString();
        const { status = 200, headers = {}, body = '' } = answer(request);
        response.writeHead(status, headers);
        response.end(body);
      });
    });
    port = new URL(server.url).port;
  });
  after(() => server.close());
  beforeEach(() => {
    seen.length = 0;
    answer = () => ({ body: 'hello' });
  });

  describe('strict, as Porter runs it', () => {
    const egress = new GuardedEgress();

    const spellings = [
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      'localhost',
      'localhost.',
      'LOCALHOST',
      '0.0.0.0',
      '127.0.0.1.',
    ];
    for (const host of spellings) {
      it(`refuses http://${host}:PORT/ and never connects`, async () => {
        const refused = await refusal(egress.fetch(`http://${host}:${port}/secret`));
        expect(refused.code).to.equal('forbidden');
        expect(refused.details).to.deep.include({ reason: 'egress-refused' });
        expect(refused.addressClass).to.be.oneOf(['loopback', 'unspecified']);
        expect(refused.message).to.match(/^Porter will not connect to \S+: it (is|resolves to) (a loopback|the unspecified) address$/);
        expect(seen).to.have.length(0);
      });
    }

    it('refuses the cloud metadata address and private networks, naming the class', async () => {
      expect((await refusal(egress.fetch('http://169.254.169.254/latest/meta-data/'))).message).to.contain('link-local');
      expect((await refusal(egress.fetch('http://10.0.0.1/'))).addressClass).to.equal('private');
      expect((await refusal(egress.fetch('https://[fd00:ec2::254]/'))).addressClass).to.equal('private');
      expect((await refusal(egress.fetch('http://100.64.0.1/'))).addressClass).to.equal('carrier-grade-nat');
    });

    it('reaches out over http and https only', async () => {
      const failure = await egress.fetch('file:///etc/passwd').catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(TypeError);
      expect(String(failure)).to.contain('http and https only');
    });
  });

  describe('names that resolve to a non-public address', () => {
    it('refuses a name that resolves to 127.0.0.1, saying so without the address', async () => {
      const { lookup } = tableLookup({ 'rebind.example': '127.0.0.1' });
      const refused = await refusal(new GuardedEgress({ lookup }).fetch(`http://rebind.example:${port}/`));
      expect(refused.message).to.equal('Porter will not connect to rebind.example: it resolves to a loopback address');
      expect(refused.details).to.deep.equal({ reason: 'egress-refused', host: 'rebind.example', addressClass: 'loopback' });
      expect(seen).to.have.length(0);
    });

    it('refuses a name when any of its addresses is not public, even if the first one is', async () => {
      const { lookup } = tableLookup({ 'mixed.example': ['93.184.215.14', '::ffff:192.168.1.10'] });
      expect((await refusal(new GuardedEgress({ lookup }).fetch('http://mixed.example/'))).addressClass).to.equal('private');
    });

    it('a name that does not resolve fails as fetch does (a TypeError), not as a refusal', async () => {
      const failure = await new GuardedEgress({ lookup: tableLookup({}).lookup })
        .fetch('http://nowhere.example/')
        .catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(TypeError);
      expect(String(failure)).to.contain('nowhere.example does not resolve');
    });
  });

  describe('with loopback allowed by name (as the tests allow it)', () => {
    it('connects to the address it checked: a resolver that would answer differently the second time is asked once', async () => {
      // The second answer, were it asked for, is the metadata service.
      const { lookup, asked } = tableLookup({ 'rebind.example': (count) => (count === 1 ? '127.0.0.1' : '169.254.169.254') });
      const egress = new GuardedEgress({ lookup, allow: ['loopback'] });
      const response = await egress.fetch(`http://rebind.example:${port}/checked`);
      expect(await response.text()).to.equal('hello');
      expect(asked.get('rebind.example')).to.equal(1);
      expect(seen[0]!.headers.host).to.equal(`rebind.example:${port}`);
      expect(response.url).to.equal(`http://rebind.example:${port}/checked`);
    });

    it('follows redirects by hand and checks every hop: a redirect to a private or metadata address is refused', async () => {
      const { lookup } = tableLookup({ 'public.example': '127.0.0.1', 'metadata.example': '169.254.169.254' });
      const egress = new GuardedEgress({ lookup, allow: ['loopback'] });
      for (const target of [
        'http://10.0.0.7/',
        'http://metadata.example/latest/',
        'http://[::ffff:169.254.169.254]/',
        'http://0x0a000001/',
      ]) {
        answer = () => ({ status: 302, headers: { location: target } });
        const refused = await refusal(egress.fetch(`http://public.example:${port}/start`));
        expect(refused.addressClass, target).to.be.oneOf(['private', 'link-local']);
      }
    });

    it('follows allowed redirects as fetch does: 303 becomes GET, credentials stay on their origin, the final URL is reported', async () => {
      const { lookup } = tableLookup({ 'a.example': '127.0.0.1', 'b.example': '127.0.0.1' });
      const egress = new GuardedEgress({ lookup, allow: ['loopback'] });
      answer = (request) =>
        request.url === '/start'
          ? { status: 303, headers: { location: `http://b.example:${port}/end` } }
          : { body: `${request.method} ${request.headers.authorization ?? 'no credentials'}` };
      const response = await egress.fetch(`http://a.example:${port}/start`, {
        method: 'POST',
        body: 'payload',
        headers: { authorization: 'Bearer secret' },
      });
      expect(await response.text()).to.equal('GET no credentials');
      expect(response.redirected).to.equal(true);
      expect(response.url).to.equal(`http://b.example:${port}/end`);
    });

    it('307 keeps the method and body; redirect "manual" hands back the redirect; too many redirects fail', async () => {
      const { lookup } = tableLookup({ 'a.example': '127.0.0.1' });
      const egress = new GuardedEgress({ lookup, allow: ['loopback'], maxRedirects: 2 });
      answer = (request) =>
        request.url === '/start'
          ? { status: 307, headers: { location: '/end' } }
          : { body: `${request.method} ${(request as IncomingMessage & { text?: string }).text}` };
      expect(await (await egress.fetch(`http://a.example:${port}/start`, { method: 'PUT', body: 'same body' })).text()).to.equal(
        'PUT same body',
      );
      const manual = await egress.fetch(`http://a.example:${port}/start`, { redirect: 'manual' });
      expect([manual.status, manual.headers.get('location')]).to.deep.equal([307, '/end']);
      answer = () => ({ status: 302, headers: { location: '/again' } });
      const failure = await egress.fetch(`http://a.example:${port}/loop`).catch((error: unknown) => error);
      expect(String(failure)).to.contain('more than 2 redirects');
    });

    it("answers like fetch: status, headers (set-cookie kept apart), a gzip body decoded, and the caller's signal aborts", async () => {
      const egress = new GuardedEgress({ allow: ['loopback'] });
      answer = () => ({
        status: 201,
        headers: { 'content-encoding': 'gzip', 'content-type': 'text/plain', 'set-cookie': 'a=1' },
        body: gzipSync('compressed text'),
      });
      const response = await egress.fetch(`${server.url}/z`);
      expect(response.status).to.equal(201);
      expect(response.headers.get('content-type')).to.equal('text/plain');
      expect(response.headers.getSetCookie()).to.deep.equal(['a=1']);
      expect(await response.text()).to.equal('compressed text');
      const aborted = await egress.fetch(`${server.url}/z`, { signal: AbortSignal.abort() }).catch((error: unknown) => error);
      expect((aborted as Error).name).to.equal('AbortError');
    });
  });

  it("over TLS keeps the name: SNI and the certificate check are for the URL's host, not the address dialled", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'porter-egress-tls-'));
    const credentials = await selfSignedCertificate(folder, 'secure.example');
    const names: string[] = [];
    const secure = createHttpsServer(
      { ...credentials, SNICallback: (name, done) => (names.push(name), done(null, createSecureContext(credentials))) },
      (_request, response) => response.end('secret'),
    );
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    try {
      const { lookup } = tableLookup({ 'secure.example': '127.0.0.1' });
      const securePort = (secure.address() as { port: number }).port;
      const failure = await new GuardedEgress({ lookup, allow: ['loopback'] })
        .fetch(`https://secure.example:${securePort}/`)
        .catch((error: unknown) => error);
      // The certificate is self-signed, so the check that it is for secure.example runs and fails closed.
      expect(String((failure as Error).cause)).to.match(/self[- ]signed/i);
      expect(names).to.deep.equal(['secure.example']);
    } finally {
      secure.closeAllConnections();
      await new Promise<void>((resolve) => secure.close(() => resolve()));
      await rm(folder, { recursive: true, force: true });
    }
  });

  describe('showing where a URL leads (approval cards)', () => {
    const { lookup } = tableLookup({ 'example.com': '93.184.215.14', 'rebind.example': '127.0.0.1' });
    const egress = new GuardedEgress({ lookup });

    it('names the host, its addresses and the refusal, without connecting', async () => {
      expect(await egress.destinationOf('http://2130706433:3000/x')).to.deep.equal({
        host: '127.0.0.1',
        literal: true,
        addresses: [{ address: '127.0.0.1', class: 'loopback' }],
        refused: 'loopback',
        unresolved: false,
      });
      expect(await egress.destinationOf('https://example.com/')).to.deep.equal({
        host: 'example.com',
        literal: false,
        addresses: [{ address: '93.184.215.14', class: 'public' }],
        refused: null,
        unresolved: false,
      });
      expect((await egress.destinationOf('http://rebind.example/'))!.refused).to.equal('loopback');
      expect((await egress.destinationOf('http://nowhere.example/'))!.unresolved).to.equal(true);
      expect(await egress.destinationOf('mailto:ada@example.com')).to.equal(null);
    });

    it('gives up on a name that takes too long to resolve', async () => {
      const slow = new GuardedEgress({ lookup: () => new Promise(() => undefined), inspectTimeoutMs: 50 });
      expect((await slow.destinationOf('http://slow.example/'))!.unresolved).to.equal(true);
    });
  });

  it('the guard itself resolves a host once and hands node a lookup of exactly the checked addresses', async () => {
    const { lookup, asked } = tableLookup({ 'two.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    const admitted = await new EgressGuard({ lookup }).admit('two.example');
    const answers = await new Promise((resolve, reject) =>
      admitted.lookup('two.example', { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
    );
    expect(answers).to.deep.equal([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    const v6 = await new Promise((resolve) => admitted.lookup('two.example', { family: 6 }, (_error, address) => resolve(address)));
    expect(v6).to.equal('2606:2800:21f:cb07:6820:80da:af6b:8b2c');
    expect(asked.get('two.example')).to.equal(1);
  });
});
