import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromeSuite, pendingApproval, type ChromeSession } from '../support/browser.js';
import type { WireClient } from '../support/turn-client.js';

/** An app with a form running notes_add and a button running notes_list, made through the wire. */
async function notesApp(client: WireClient, prompt: string): Promise<string> {
  const app = (await client.json('POST', '/apps', { prompt })).body;
  for (const instruction of ['add a form for the tool notes_add', 'add a button for the tool notes_list']) {
    expect((await client.json('POST', `/apps/${app.id}/edit`, { instruction })).status).to.equal(200);
  }
  return app.id as string;
}

describe('Apps that run host tools, and served apps in a frame, in the shipped chrome (headless Chromium)', function () {
  this.timeout(180_000);
  let root: string;
  let session: (ChromeSession & { errors: string[] }) | null = null;
  const chrome = chromeSuite(async () => {
    root = await mkdtemp(join(tmpdir(), 'porter-chrome-app-tools-'));
    return { porter: { sandbox: { kind: 'local', root, startTimeoutMs: 5_000 } } };
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('runs a read at once; a write shows an approval card in place, and once approved runs and shows its result', async () => {
    const ivy = chrome.host.client.as('ivy');
    const appId = await notesApp(ivy, 'notes board');
    session = await chrome.open({ user: 'ivy' });
    const { page, screenshot } = session;
    await page.goto(`${chrome.host.url}/#/apps/${appId}`);
    const canvas = page.locator('.app-page-canvas');

    await canvas.getByRole('button', { name: 'Notes list' }).click();
    const listed = canvas.locator('.app-action-outcome[data-action-phase="ran"]');
    await listed.waitFor();
    expect(JSON.parse((await listed.locator('.app-action-output').textContent())!)).to.deep.equal({ notes: [] });

    const form = canvas.locator('form.app-form');
    await form.getByLabel('Text').fill('buy oat milk');
    await form.getByRole('button', { name: 'Notes add' }).click();
    const card = await pendingApproval(form, 'Add the note “buy oat milk”');
    expect(await card.locator('option').allTextContents()).to.include('Allow this tool for this app');
    await screenshot('chrome-app-tool-approval');

    await card.getByRole('button', { name: 'Approve' }).click();
    const ran = form.locator('.app-action-outcome[data-action-phase="ran"]');
    await ran.waitFor();
    expect(JSON.parse((await ran.locator('.app-action-output').textContent())!)).to.deep.equal({ added: 'buy oat milk', count: 1 });
    await screenshot('chrome-app-tool-ran');

    await canvas.getByRole('button', { name: 'Notes list' }).click();
    await canvas.locator('.app-action-outcome[data-action-phase="ran"] .app-action-output:has-text("buy oat milk")').first().waitFor();
    const notes = await ivy.json('POST', `/apps/${appId}/actions/run-notes_list`, { input: {} });
    expect(notes.body.output, 'the approved call ran exactly once').to.deep.equal({ notes: ['buy oat milk'] });
  });

  it('shows a denial in place and runs nothing', async () => {
    const jo = chrome.host.client.as('jo');
    const appId = await notesApp(jo, 'notes board');
    session = await chrome.open({ user: 'jo' });
    const { page } = session;
    await page.goto(`${chrome.host.url}/#/apps/${appId}`);
    const form = page.locator('.app-page-canvas form.app-form');
    await form.getByLabel('Text').fill('never');
    await form.getByRole('button', { name: 'Notes add' }).click();
    await form.locator('.approval-card[data-approval-state="pending"]').getByRole('button', { name: 'Deny' }).click();
    await form.locator('.app-action-outcome[data-action-phase="denied"]').waitFor();
    expect((await jo.json('POST', `/apps/${appId}/actions/run-notes_list`, { input: {} })).body.output).to.deep.equal({ notes: [] });
  });

  it('serves an app on its own server and frames its page sandboxed, in an opaque origin', async () => {
    const kit = chrome.host.client.as('kit');
    const app = (await kit.json('POST', '/apps', { prompt: 'reading list' })).body;
    session = await chrome.open({ user: 'kit' });
    const { page, screenshot } = session;
    await page.goto(`${chrome.host.url}/#/apps/${app.id}`);
    await page.getByRole('button', { name: 'Serve' }).click();
    const frame = page.locator('iframe.app-frame');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).to.equal('allow-scripts allow-forms');
    expect(await frame.getAttribute('src')).to.equal(`/api/porter/apps/${app.id}/view/`);
    const framed = page.frameLocator('iframe.app-frame');
    expect(await framed.locator('h2').textContent()).to.equal('Reading list');
    await page.locator('.badge:has-text("Served")').waitFor();
    await screenshot('chrome-app-served-frame');

    const inner = page.frames().find((f) => f.url().endsWith(`/apps/${app.id}/view/`))!;
    expect(inner, 'the frame loaded the view route').to.not.equal(undefined);
    const reach = await inner.evaluate(async () => {
      let cookie: string;
      try {
        cookie = document.cookie;
      } catch (error) {
        cookie = `refused: ${(error as Error).name}`;
      }
      const wire = await fetch('/api/porter/apps', { credentials: 'include' }).then(
        (r) => r.status,
        () => 'blocked',
      );
      return { origin: window.origin, cookie, wire };
    });
    expect(reach.origin, 'the page runs in an opaque origin').to.equal('null');
    expect(reach.cookie).to.match(/^refused/);
    expect(reach.wire, 'the page cannot read the wire as the person').to.equal('blocked');
    session.errors.length = 0; // the blocked fetch above is logged by the browser, as it should be
  });
});
