import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devHost, sharedDevHost } from '../support/dev-host-fixture.js';
import { tinyDocument } from '../support/apps-documents.js';
import { readTurn, toolPart, type WireClient } from '../support/turn-client.js';
import { approvalResponded } from '../support/approval-response.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import { ZipAppArchive } from '../../adapters/apps/zip-app-archive.js';
import { HOSTILE_URLS, hostileLinksDocument, schemeFollowed, urlsIn } from '../support/hostile-urls.js';

/** The specification's letter, through the development host as `npm start` runs it. */
describe("The spec's letter through the development host", function () {
  this.timeout(30_000);
  let host: DevHost & { client: WireClient };
  let ada: WireClient;

  sharedDevHost((started) => ({ host, ada } = started));

  describe('approvals answer to the parked tool-call id', () => {
    it("GET, decide and batch by tool-call id; someone else's is 404; the next turn runs it once", async () => {
      const thread = await ada.newThread();
      const parked = await ada.say(thread, '/call notes_add {"text":"by tool-call id"}');
      const part = toolPart(parked.message, 'notes_add')!;
      const toolCallId = part.toolCallId as string;
      const approvalId = part.approval.id as string;
      expect(toolCallId).to.not.match(/^apr_/);

      const byCall = await ada.json('GET', `/approvals/${encodeURIComponent(toolCallId)}`);
      expect(byCall.status).to.equal(200);
      expect(byCall.body).to.deep.equal((await ada.json('GET', `/approvals/${approvalId}`)).body);
      expect(byCall.body.request.toolCallId).to.equal(toolCallId);

      const carol = host.client.as('carol');
      expect((await carol.json('GET', `/approvals/${encodeURIComponent(toolCallId)}`)).status).to.equal(404);
      expect((await carol.json('POST', `/approvals/${encodeURIComponent(toolCallId)}/decide`, { approve: true })).status).to.equal(404);
      expect((await carol.json('POST', '/approvals/decide', { ids: [toolCallId], approve: true })).status).to.equal(404);

      const decided = await ada.json('POST', `/approvals/${encodeURIComponent(toolCallId)}/decide`, { approve: true });
      expect(decided.status).to.equal(200);
      expect(decided.body).to.deep.include({ id: approvalId, state: 'approved' });
      const again = await ada.json('POST', '/approvals/decide', { ids: [toolCallId, approvalId], approve: false });
      expect(again.status).to.equal(409);

      const resumed = await ada.continueTurn(thread, parked.message);
      expect(toolPart(resumed.message, 'notes_add')).to.deep.include({
        state: 'output-available',
        output: { added: 'by tool-call id', count: 1 },
      });
      expect((await ada.json('GET', `/approvals/${encodeURIComponent(toolCallId)}`)).body).to.deep.include({
        id: approvalId,
        state: 'executed',
      });
    });

    it('decides a batch named by tool-call ids', async () => {
      const thread = await ada.newThread();
      const parked = await ada.say(thread, '/call notes_clear {}');
      const part = toolPart(parked.message, 'notes_clear')!;
      const batch = await ada.json('POST', '/approvals/decide', { ids: [part.toolCallId], approve: false });
      expect(batch.status).to.equal(200);
      expect(batch.body.approvals).to.have.length(1);
      expect(batch.body.approvals[0]).to.deep.include({ id: part.approval.id, state: 'denied' });
    });

    it('takes the AI SDK approval response when it names the approval by its tool-call id', async () => {
      const dan = host.client.as('dan');
      const thread = await dan.newThread();
      const parked = await dan.say(thread, '/call notes_add {"text":"answered by call id"}');
      const part = toolPart(parked.message, 'notes_add')!;
      const answered = approvalResponded(parked.message, part, { id: part.toolCallId, approved: true });
      const response = await dan.send('POST', `/threads/${thread}/turn`, { id: thread, trigger: 'submit-message', messages: [answered] });
      const resumed = await readTurn(response, parked.message);
      expect(toolPart(resumed.message, 'notes_add')!.output).to.deep.equal({ added: 'answered by call id', count: 1 });
    });
  });

  describe('the org refusal', () => {
    it("answers 402 on any method and sub-path of /approvals and /grants (the issue's examples)", async () => {
      for (const [method, path, body] of [
        ['PUT', '/grants?org=1', undefined],
        ['GET', '/approvals/x/y?org=1', undefined],
        ['PATCH', '/grants/grt_1', { org: 'acme' }],
        ['DELETE', '/approvals', { org: 'acme' }],
      ] as const) {
        const answer = await ada.json(method, path, body);
        expect(answer.status, `${method} ${path}`).to.equal(402);
        expect(answer.body.error.code).to.equal('cloud-required');
      }
    });
  });

  describe('POST /apps/import carries no ambient credentials', () => {
    const file = Buffer.from(new ZipAppArchive().pack({ ...tinyDocument(), title: 'Imported' }));
    const importWith = (headers: Record<string, string>) =>
      fetch(`${host.url}${host.porter.mount}/apps/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.porter.app', ...headers },
        body: file,
      });

    it('refuses a cookie-carrying import that another site started (cross-site, same-site) with 403', async () => {
      for (const site of ['cross-site', 'same-site', 'Cross-Site']) {
        const response = await importWith({ cookie: 'porter_demo_user=ada', 'sec-fetch-site': site });
        expect(response.status, site).to.equal(403);
        expect((await response.json()).error.code).to.equal('forbidden');
      }
      // An anonymous session's cookie is ambient too.
      const anonymous = await fetch(`${host.url}${host.porter.mount}/apps`);
      const cookie = anonymous.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; ');
      expect(cookie).to.contain('porter_anon=');
      expect((await importWith({ cookie, 'sec-fetch-site': 'cross-site' })).status).to.equal(403);
      const apps = await ada.json('GET', '/apps');
      expect(apps.body.apps.map((a: { title: string }) => a.title)).to.not.include('Imported');
    });

    it('imports from the same origin, a user-started request or a client without Sec-Fetch-Site', async () => {
      for (const site of ['same-origin', 'none', undefined]) {
        const response = await importWith({ cookie: 'porter_demo_user=erin', ...(site ? { 'sec-fetch-site': site } : {}) });
        expect(response.status, String(site)).to.equal(201);
      }
      // Without cookies nothing ambient rides along: a cross-site call authenticates itself.
      expect((await importWith({ 'x-demo-user': 'erin', 'sec-fetch-site': 'cross-site' })).status).to.equal(201);
      expect((await host.client.as('erin').json('GET', '/apps')).body.apps).to.have.length(4);
    });
  });

  describe("a graduated app's static pages", () => {
    let root: string;
    before(async () => {
      root = await mkdtemp(join(tmpdir(), 'porter-e2e-links-'));
    });
    after(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it('carry no javascript:, vbscript: or data: links, in any spelling, after graduating on the local sandbox', async function () {
      const served = await devHost({ porter: { sandbox: { kind: 'local', root, startTimeoutMs: 5_000 } } });
      try {
        const frank = served.client.as('frank');
        const file = Buffer.from(new ZipAppArchive().pack(hostileLinksDocument()));
        const imported = await fetch(`${frank.base}/apps/import`, {
          method: 'POST',
          headers: { ...frank.headers, 'content-type': 'application/vnd.porter.app' },
          body: file,
        });
        expect(imported.status).to.equal(201);
        const app = (await imported.json()) as { id: string };
        const graduated = await frank.json('POST', `/apps/${app.id}/graduate`, {});
        expect(graduated.status, JSON.stringify(graduated.body)).to.equal(200);
        expect(graduated.body.ui).to.equal('http');

        const page = await frank.send('GET', `/apps/${app.id}/view/`);
        expect(page.status).to.equal(200);
        const html = await page.text();
        const urls = urlsIn(html);
        expect(urls)
          .to.include('https://example.com/docs?a=1&b=2')
          .and.include('notes/today')
          .and.include('data:image/png;base64,iVBORw0KGgo=');
        for (const url of urls) {
          const scheme = schemeFollowed(url);
          expect(
            scheme === 'https:' || scheme === 'http:' || (scheme === 'data:' && /^data:image\/(png|jpeg|gif|webp)[;,]/.test(url)),
            `${JSON.stringify(url)} follows ${scheme}`,
          ).to.equal(true);
        }
        // The only scripts are Porter's own: the tree as JSON data, in which no "<" can end the
        // element early, and the page script that draws it (by the same link rule, in the browser).
        expect([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0])).to.deep.equal([
          '<script type="application/json" id="porter-app">',
          '<script>',
        ]);
        const data = /<script type="application\/json" id="porter-app">([\s\S]*?)<\/script>/.exec(html)![1]!;
        expect(data).to.not.contain('<');
        expect(JSON.parse(data).title).to.equal(hostileLinksDocument().title);
        // Every node was drawn, the hostile ones as text.
        for (let i = 0; i < HOSTILE_URLS.length; i++) expect(html).to.contain(`hostile link ${i}`).and.contain(`hostile image ${i}`);
      } finally {
        await served.close();
      }
    });
  });
});
