import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devHost } from '../support/dev-host-fixture.js';
import type { WireClient } from '../support/turn-client.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';

/**
 * An app server of its own that tries what generated code might: set cookies and headers of its
 * choosing, loosen the sandbox, redirect off-site, read the person's credentials.
 */
const OWN_SERVER = [
  "const http = require('node:http');",
  'http.createServer((req, res) => {',
  "  const url = new URL(req.url, 'http://x');",
  "  if (url.pathname === '/') { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'porter_demo_user=mallory; Path=/', 'x-leak': 'yes', 'content-security-policy': 'sandbox allow-scripts allow-same-origin' }); return res.end('<!doctype html><title>Own server</title><link rel=stylesheet href=style.css><h1>Own page</h1>'); }",
  "  if (url.pathname === '/style.css') { res.writeHead(200, { 'content-type': 'text/css', 'set-cookie': 'a=b' }); return res.end('h1{color:rebeccapurple}'); }",
  "  if (url.pathname === '/echo') { res.writeHead(200, { 'content-type': 'application/json' }); return res.end(JSON.stringify({ url: req.url, cookie: req.headers.cookie || null, authorization: req.headers.authorization || null })); }",
  "  if (url.pathname === '/old') { res.writeHead(302, { location: '/echo?from=old' }); return res.end(); }",
  "  if (url.pathname === '/away') { res.writeHead(302, { location: 'https://example.com/' }); return res.end(); }",
  "  if (url.pathname === '/boom') { res.writeHead(500); return res.end('boom'); }",
  "  res.writeHead(404); res.end('nope');",
  "}).listen(Number(process.env.PORT), process.env.HOST || '0.0.0.0');",
].join('\n');

describe("A served app's own page through the wire (local sandbox, development host)", function () {
  this.timeout(60_000);
  let root: string;
  let host: DevHost & { client: WireClient };
  let ada: WireClient;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'porter-e2e-view-'));
    host = await devHost({ porter: { sandbox: { kind: 'local', root, startTimeoutMs: 5_000 } } });
    ada = host.client.as('ada');
  });

  after(async () => {
    await host.close();
    await rm(root, { recursive: true, force: true });
  });

  const view = (client: WireClient, appId: string, rest = '/', headers: Record<string, string> = {}) =>
    fetch(`${client.base}/apps/${appId}/view${rest}`, { headers: { ...client.headers, ...headers } });

  it("graduates an app and serves its scaffolded page under the open payload's url, sandboxed", async () => {
    const app = (await ada.json('POST', '/apps', { prompt: 'reading list' })).body;
    expect((await view(ada, app.id)).status, 'a tree app has no page to pass on').to.equal(409);
    expect((await ada.json('POST', `/apps/${app.id}/graduate`, {})).status).to.equal(200);
    const opened = (await ada.json('GET', `/apps/${app.id}/open`)).body;
    expect(opened).to.deep.include({ kind: 'http', url: `/apps/${app.id}/view/` });

    for (const path of [`${ada.base}${opened.url}`, `${ada.base}/apps/${app.id}/view`]) {
      const page = await fetch(path, { headers: ada.headers });
      expect(page.status, path).to.equal(200);
      expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).to.equal('sandbox allow-scripts allow-forms');
      expect(page.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(page.headers.get('cache-control')).to.equal('private, no-store');
      expect(page.headers.getSetCookie()).to.deep.equal([]);
      const html = await page.text();
      expect(html).to.contain('<title>Reading list</title>');
      expect(html).to.contain('<h2>Reading list</h2>');
    }

    const bob = await view(host.client.as('bob'), app.id);
    expect(bob.status, "someone else's app is not revealed").to.equal(404);
    expect((await bob.json()).error.code).to.equal('not-found');
    const anonymous = await fetch(`${host.client.base}/apps/${app.id}/view/`);
    expect(anonymous.status).to.equal(404);
  });

  it("passes on only the path, status, type and bytes: none of the person's credentials in, none of the app's cookies or headers out", async () => {
    const app = (await ada.json('POST', '/apps', { prompt: 'own page' })).body;
    expect((await ada.json('POST', `/apps/${app.id}/graduate`, {})).status).to.equal(200);
    const edited = await ada.json('POST', `/apps/${app.id}/edit`, { instruction: `rewrite server.js as \`${OWN_SERVER}\`` });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);

    const page = await view(ada, app.id);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.contain('<h1>Own page</h1>');
    expect(page.headers.getSetCookie(), "the app's cookie is not passed on").to.deep.equal([]);
    expect(page.headers.get('x-leak')).to.equal(null);
    expect(page.headers.get('content-security-policy'), 'the app cannot loosen the sandbox').to.equal('sandbox allow-scripts allow-forms');

    const css = await view(ada, app.id, '/style.css');
    expect(css.headers.get('content-type')).to.equal('text/css');
    expect(css.headers.getSetCookie()).to.deep.equal([]);
    expect(await css.text()).to.equal('h1{color:rebeccapurple}');

    const echo = await view(ada, app.id, '/echo?x=1&y=two', {
      authorization: 'Bearer a-secret-token',
      cookie: 'porter_demo_user=ada; session=s3cret',
    });
    expect(await echo.json()).to.deep.equal({ url: '/echo?x=1&y=two', cookie: null, authorization: null });

    const followed = await view(ada, app.id, '/old');
    expect(followed.status, 'a redirect within the app is followed').to.equal(200);
    expect((await followed.json()).url).to.equal('/echo?from=old');
    const away = await view(ada, app.id, '/away');
    expect(away.status, 'a redirect off the app is refused').to.equal(503);
    expect((await away.json()).error).to.deep.include({ code: 'unavailable', details: { status: 302 } });
    const missing = await view(ada, app.id, '/nothing-here');
    expect(missing.status).to.equal(404);
    expect((await missing.json()).error.code).to.equal('not-found');
    const boom = await view(ada, app.id, '/boom');
    expect(boom.status).to.equal(503);
    expect((await boom.json()).error.code).to.equal('unavailable');
  });
});
