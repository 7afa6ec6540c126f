import { expect } from 'chai';
import { adasAppOn } from '../../support/apps-harness.js';
import { ada, bob } from '../../support/guard-harness.js';
import { localSandboxPerTest } from '../../support/local-sandbox-fixture.js';
import { MAX_PAGE_BYTES } from '../../../application/apps/view-served-app.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A server that answers too much, or sends its caller round in circles. */
const GREEDY_SERVER = [
  "const http = require('node:http');",
  'http.createServer((req, res) => {',
  `  if (req.url === '/huge') { res.writeHead(200, { 'content-type': 'application/octet-stream' }); return res.end(Buffer.alloc(${MAX_PAGE_BYTES + 1})); }`,
  "  if (req.url.startsWith('/loop')) { res.writeHead(302, { location: '/loop?' + Math.random() }); return res.end(); }",
  "  res.writeHead(200, { 'content-type': 'text/plain' }); res.end('page at ' + req.url);",
  "}).listen(Number(process.env.PORT), process.env.HOST || '0.0.0.0');",
].join('\n');

describe("ViewServedApp: a served app's pages from its local sandbox", function () {
  this.timeout(60_000);
  const local = localSandboxPerTest('porter-view-', 5_000);

  it("answers the scaffolded server's page for the owner only, and nothing for a tree app", async () => {
    const { h, app } = await adasAppOn(local.sandbox(), 'reading list');
    expect((await h.apps.viewServedApp.execute({ principal: ada, appId: app.id, path: '/' }).catch((e) => e)).code).to.equal('conflict');
    await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    const page = await h.apps.viewServedApp.execute({ principal: ada, appId: app.id, path: '/' });
    expect(page.status).to.equal(200);
    expect(page.contentType).to.equal('text/html; charset=utf-8');
    expect(text(page.body)).to.contain('<title>Reading list</title>');
    expect((await h.apps.viewServedApp.execute({ principal: bob, appId: app.id, path: '/' }).catch((e) => e)).code).to.equal('not-found');
    expect((await h.apps.viewServedApp.execute({ principal: ada, appId: app.id, path: '/missing' }).catch((e) => e)).code).to.equal(
      'not-found',
    );
  });

  it('brings a stopped server back from its snapshot before answering', async () => {
    const { h, app } = await adasAppOn(local.sandbox(), 'garden');
    await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    await local.sandbox().closeAll();
    const page = await h.apps.viewServedApp.execute({ principal: ada, appId: app.id, path: '/' });
    expect(text(page.body)).to.contain('<title>Garden</title>');
  });

  it('refuses a page over the size cap and a redirect that never ends', async () => {
    const { h, app } = await adasAppOn(local.sandbox(), 'greedy');
    await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    await h.apps.editApp.execute({ principal: ada, appId: app.id, instruction: `rewrite server.js as \`${GREEDY_SERVER}\`` });
    expect(text((await h.apps.viewServedApp.execute({ principal: ada, appId: app.id, path: '/a?b=c' })).body)).to.equal('page at /a?b=c');
    const huge = await h.apps.viewServedApp.execute({ principal: ada, appId: app.id, path: '/huge' }).catch((e) => e);
    expect(huge.code).to.equal('unavailable');
    expect(huge.message).to.contain(`larger than ${MAX_PAGE_BYTES} bytes`);
    const loop = await h.apps.viewServedApp.execute({ principal: ada, appId: app.id, path: '/loop' }).catch((e) => e);
    expect(loop.code).to.equal('unavailable');
    expect(loop.message).to.contain('redirects too many times');
  });
});
