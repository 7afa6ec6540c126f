import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GARDEN_PLANNER, PacedScriptedModel, chromeSuite, type ChromeSession } from '../support/browser.js';
import { get } from '../../composition/tokens.js';
import { APP_TOKENS } from '../../composition/modules/apps-tokens.js';
import { containerOf } from '../../composition/porter-container.js';

describe('Generated apps in the shipped chrome (headless Chromium, development host)', function () {
  this.timeout(120_000);
  let session: (ChromeSession & { errors: string[] }) | null = null;
  let pins: string;
  const component = () => join(pins, 'welcome-card.json');
  const chrome = chromeSuite(() => {
    // A host component the person can fork (a remixable pin), kept in a manifest on disk.
    pins = mkdtempSync(join(tmpdir(), 'porter-chrome-pins-'));
    writeFileSync(component(), JSON.stringify({ ...GARDEN_PLANNER, title: 'Welcome card' }));
    writeFileSync(
      join(pins, 'pins.json'),
      JSON.stringify({ slots: [{ slot: 'welcome', file: 'welcome-card.json', title: 'Welcome card' }] }),
    );
    // No sandbox: the Serve step shows how the page says a deployment cannot serve apps.
    return { porter: { model: new PacedScriptedModel(60), pins: join(pins, 'pins.json'), sandbox: false } };
  });

  after(async () => {
    rmSync(pins, { recursive: true, force: true });
  });

  it('builds an app view in place in the conversation: skeletons first, each swapped for its node as it arrives', async () => {
    session = await chrome.open({ user: 'ivy' });
    const { page, screenshot } = session;
    await page.waitForSelector('text=Hello, ivy.');
    // Watch the view as a person would: how many placeholders it showed, and whether it stayed one view.
    await page.evaluate(() => {
      const watch = { mostSkeletons: 0, views: new Set<Element>(), statuses: [] as string[] };
      (window as unknown as { watch: typeof watch }).watch = watch;
      new MutationObserver(() => {
        for (const view of document.querySelectorAll('.app-view')) watch.views.add(view);
        watch.mostSkeletons = Math.max(watch.mostSkeletons, document.querySelectorAll('.app-view [data-pending="true"]').length);
        const status = document.querySelector('.app-view')?.getAttribute('data-status');
        if (status && watch.statuses[watch.statuses.length - 1] !== status) watch.statuses.push(status);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByLabel('Message', { exact: true }).fill('/app a garden planner');
    await page.keyboard.press('Enter');

    await page.waitForSelector('.app-view[data-status="generating"] .app-skeleton');
    await page.waitForSelector('.app-view[data-status="generating"] [data-node-type="heading"]');
    await screenshot('chrome-app-building');
    await page.waitForSelector('.app-view[data-status="ready"]');
    await screenshot('chrome-app-ready');

    const watch = await page.evaluate(() => {
      const w = (window as unknown as { watch: { mostSkeletons: number; views: Set<Element>; statuses: string[] } }).watch;
      return { mostSkeletons: w.mostSkeletons, views: w.views.size, statuses: w.statuses };
    });
    expect(watch.mostSkeletons, 'placeholders were shown while nodes were on their way').to.be.greaterThan(1);
    expect(watch.views, 'every update replaced the same view').to.equal(1);
    expect(watch.statuses).to.deep.equal(['generating', 'ready']);
    const view = page.locator('.app-view');
    expect(await view.locator('[data-pending="true"]').count()).to.equal(0);
    expect(await view.locator('h2.app-heading').textContent()).to.equal('Garden planner');
    expect(await view.locator('label:has-text("Plant")').count()).to.equal(1);
    expect(await view.locator('.app-view-title').textContent()).to.equal('Garden planner');
  });

  it('opens the app live: a record added through its own fields appears in its list, and can be removed', async () => {
    const ivy = chrome.host.client.as('ivy');
    const { apps } = (await ivy.json('GET', '/apps')).body;
    const app = apps.find((a: { title: string }) => a.title === 'Garden planner');
    expect(app, 'the app built in the chat is listed').to.not.equal(undefined);

    session = await chrome.open({ user: 'ivy' });
    const { page, screenshot } = session;
    await page.goto(`${chrome.host.url}/#/apps`);
    await page.click('.card-link:has-text("Garden planner")');
    await page.waitForSelector('.app-page-canvas >> text=No plants yet');
    await page.getByLabel('Plant').fill('Tomatoes');
    await page.getByLabel('Bed').selectOption('Greenhouse');
    await page.click('button:has-text("Add plant")');
    await page.waitForSelector('.app-list-item:has-text("Tomatoes")');
    expect(await page.getByLabel('Plant').inputValue(), 'the field is cleared for the next one').to.equal('');
    await screenshot('chrome-app-page');

    const records = (await ivy.json('GET', `/apps/${app.id}/records/plants`)).body.records;
    expect(records.map((r: { data: unknown }) => r.data)).to.deep.equal([{ name: 'Tomatoes', bed: 'Greenhouse' }]);

    await page.click('.app-list-item:has-text("Tomatoes") >> button:has-text("Remove")');
    await page.waitForSelector('.app-page-canvas >> text=No plants yet');
    expect((await ivy.json('GET', `/apps/${app.id}/records/plants`)).body.records).to.deep.equal([]);

    // Serving it needs a sandbox this deployment lacks: the person is told, and the tree keeps serving.
    await page.getByRole('button', { name: 'Serve' }).click();
    await page.waitForSelector('.banner.error:has-text("No sandbox is configured")');
    expect(await page.locator('.app-page-canvas h2.app-heading').textContent()).to.equal('Garden planner');
    session!.errors.length = 0; // the 501 the page just read is the point of this step
  });

  it('marks a drifted fork with a badge and rebases it only when asked', async () => {
    const jon = chrome.host.client.as('jon');
    const seeded = await jon.json('POST', '/apps/seed', { slot: 'welcome' });
    expect(seeded.status, JSON.stringify(seeded.body)).to.equal(201);
    const appId = seeded.body.id as string;
    // The host changes its component, then runs the sync (what `porter sync` does).
    writeFileSync(component(), JSON.stringify({ ...GARDEN_PLANNER, title: 'Welcome card, redesigned' }));
    const report = await get(containerOf(chrome.host.porter), APP_TOKENS.AppsUseCases).syncPins.execute({});
    expect(report.drifted.map((d) => d.appId)).to.include(appId);

    session = await chrome.open({ user: 'jon' });
    const { page, screenshot } = session;
    // Opened in a chat, the fork's view says it drifted too.
    await page.waitForSelector('text=Hello, jon.');
    await page.getByLabel('Message', { exact: true }).fill(`/call porter_apps_open {"appId":"${appId}"}`);
    await page.keyboard.press('Enter');
    const inChat = page.locator(`.app-view[data-app-id="${appId}"] .app-view-drift`);
    await inChat.waitFor();
    expect(await inChat.textContent()).to.contain('welcome');
    await page.goto(`${chrome.host.url}/#/apps`);
    await page.waitForSelector('.card-link:has-text("Welcome card") .badge:has-text("Drifted")');
    await page.goto(`${chrome.host.url}/#/apps/${appId}`);
    const banner = page.locator('.banner.drift');
    await banner.waitFor();
    expect(await banner.textContent()).to.contain('welcome');
    await screenshot('chrome-app-drifted');

    await banner.getByRole('button', { name: 'Rebase' }).click();
    await page.waitForSelector('text=Rebased onto the new version');
    await page.locator('.banner.drift').waitFor({ state: 'detached' });
    const opened = await jon.json('GET', `/apps/${appId}/open`);
    expect(opened.body.pinDrift).to.equal(null);
  });
});
