import { expect } from 'chai';
import Koa from 'koa';
import { serveChrome } from '../../composition/chrome.js';
import { serve, type RunningServer } from '../support/http-server.js';

describe('serveChrome (the chrome as Koa middleware a host mounts)', function () {
  this.timeout(60_000);
  let server: RunningServer;

  before(async () => {
    const app = new Koa();
    app.use(await serveChrome({ wire: '/porter-wire', path: '/ui', title: 'Acme <assistant>' }));
    app.use((ctx) => {
      ctx.status = 418;
      ctx.body = 'the host';
    });
    server = await serve(app.callback());
  });

  after(async () => {
    await server.close();
  });

  it('serves the page under its path, naming the wire it was given, with no demo sign-in unless asked', async () => {
    for (const path of ['/ui', '/ui/', '/ui/index.html']) {
      const page = await fetch(`${server.url}${path}`);
      expect(page.status, path).to.equal(200);
      const html = await page.text();
      expect(html).to.contain('<meta name="porter-wire" content="/porter-wire">');
      expect(html).to.contain('<meta name="porter-demo-sign-in" content="off">');
      expect(html, 'the title is escaped').to.contain('<title>Acme &#60;assistant&#62;</title>');
      expect(html).to.match(/src="\/ui\/assets\/chrome\.[0-9a-f]{12}\.js"/);
    }
  });

  it('leaves every other path to the host', async () => {
    for (const path of ['/', '/uix', '/assets/chrome.js', '/ui/assets/unknown.js']) {
      expect((await fetch(`${server.url}${path}`)).status, path).to.equal(418);
    }
    expect((await fetch(`${server.url}/ui/`, { method: 'POST' })).status).to.equal(418);
  });

  it('answers each asset in the encoding the browser accepts, identical once decoded', async () => {
    const html = await (await fetch(`${server.url}/ui/`)).text();
    const script = /src="(\/ui\/assets\/[^"]+)"/.exec(html)![1]!;
    const styles = /href="(\/ui\/assets\/[^"]+\.css)"/.exec(html)![1]!;
    const plain = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).to.equal(null);
    const body = await plain.text();
    expect(body.length).to.be.greaterThan(100_000);
    for (const encoding of ['br', 'gzip']) {
      // fetch decodes what the server encoded: the bytes must come back the same.
      const encoded = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': encoding } });
      expect(encoded.headers.get('content-encoding'), encoding).to.equal(encoding);
      expect(encoded.headers.get('vary')).to.contain('Accept-Encoding');
      expect(await encoded.text(), encoding).to.equal(body);
    }
    const css = await fetch(`${server.url}${styles}`);
    expect(css.headers.get('content-type')).to.contain('text/css');
    expect(await css.text()).to.contain('.composer-field{');
  });
});

describe('serveChrome outside Koa: chrome.handle (Node http) and chrome.fetch (Web-standard)', function () {
  this.timeout(60_000);

  it('answers the same page and assets through handle and fetch, and leaves other paths to the host', async () => {
    const chrome = await serveChrome({ wire: '/api/porter', path: '/assistant' });
    const server = await serve((req, res) =>
      chrome.handle(req, res, () => {
        res.writeHead(418).end('the host');
      }),
    );
    try {
      const viaHandle = await fetch(`${server.url}/assistant/`);
      const viaFetch = await chrome.fetch(new Request('http://host.example/assistant/'));
      expect(viaHandle.status).to.equal(200);
      expect(viaFetch.status).to.equal(200);
      const html = await viaHandle.text();
      expect(await viaFetch.text()).to.equal(html);
      expect(viaFetch.headers.get('content-security-policy')).to.equal(viaHandle.headers.get('content-security-policy'));

      const script = /src="(\/assistant\/assets\/[^"]+)"/.exec(html)![1]!;
      const gzipped = await chrome.fetch(new Request(`http://host.example${script}`, { headers: { 'accept-encoding': 'gzip' } }));
      expect(gzipped.headers.get('content-encoding')).to.equal('gzip');
      expect(gzipped.headers.get('cache-control')).to.contain('immutable');
      const head = await chrome.fetch(new Request(`http://host.example${script}`, { method: 'HEAD' }));
      expect(head.status).to.equal(200);
      expect(await head.text()).to.equal('');

      expect((await fetch(`${server.url}/elsewhere`)).status, 'handle calls next').to.equal(418);
      expect((await chrome.fetch(new Request('http://host.example/elsewhere'))).status).to.equal(404);
      expect((await chrome.fetch(new Request('http://host.example/assistant/', { method: 'POST', body: 'x' }))).status).to.equal(404);
    } finally {
      await server.close();
    }
  });
});
