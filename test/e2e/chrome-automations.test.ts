import { expect } from 'chai';
import { PacedScriptedModel, chromeSuite, connectFromConnectionsPage } from '../support/browser.js';
import { suiteNangoBroker } from '../support/nango-broker-server.js';
import { DEMO_SECRET, deliverDemo } from '../support/signed-delivery.js';
import { numberedWords } from '../support/numbered-words.js';
const NANGO_KEY = 'nango-secret-for-the-chrome-tests';

describe('Automations, runs and connections in the shipped chrome (headless Chromium)', function () {
  this.timeout(120_000);
  const nango = suiteNangoBroker(NANGO_KEY);
  const chrome = chromeSuite(
    // Slow words, so a run is still going when the person presses Stop.
    async () => ({
      env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET },
      porter: { model: new PacedScriptedModel(150), connections: await nango() },
    }),
  );
  const deliver = (payload: string): Promise<string[]> => deliverDemo(chrome.host.client.base, payload);

  it('creates an automation, arms it through its standing-grant ask, and stops a run it started', async () => {
    const { page, screenshot } = await chrome.open({ user: 'kim' });
    await page.goto(`${chrome.host.url}/#/automations`);
    await page.waitForSelector('text=No automations yet');

    await page.getByRole('button', { name: 'New automation' }).click();
    await page.getByLabel('Name', { exact: true }).fill('On demo deliveries');
    await page.getByLabel('When a webhook arrives').check();
    await page.getByLabel('Webhook source').fill('demo');
    const words = numberedWords('word', 60);
    await page.getByLabel('Task').fill(`Read the delivery and say it back slowly: ${words}`);
    await page.getByRole('checkbox', { name: /notes_add/ }).check();
    await page.getByRole('button', { name: 'Create automation' }).click();
    const card = page.locator('.automation:has-text("On demo deliveries")');
    await card.locator('.badge:has-text("Disarmed")').waitFor();

    await card.getByRole('button', { name: 'Arm' }).click();
    await page.waitForSelector('text=needs your standing permission for notes_add');
    await card.locator('.badge:has-text("Armed")').waitFor();
    await screenshot('chrome-automations');

    await page.click('a:has-text("Answer in Approvals")');
    const ask = page.locator('.approval-card[data-approval-state="pending"]:has-text("notes_add")');
    await ask.waitFor();
    const appliesTo = page.locator('li.card:has(.approval-card:has-text("notes_add")) [data-applies-to="automation"]');
    expect((await appliesTo.textContent())?.replace(/\s+/g, ' ').trim()).to.equal('Applies only when “On demo deliveries” runs');
    await screenshot('chrome-approvals-page');
    await ask.getByRole('button', { name: 'Approve' }).click();
    await page.waitForSelector('text=Nothing is waiting for you');

    const [runId] = await deliver('{"order":7}');
    await page.goto(`${chrome.host.url}/#/automations`);
    const run = page.locator(`.run[data-run-id="${runId}"]`);
    await run.locator('.run-state:has-text("Running")').waitFor();
    await run.getByRole('button', { name: 'Stop' }).click();
    await page.locator(`.run[data-run-id="${runId}"][data-state="cancelled"]`).waitFor();
    expect(await run.locator('.run-state').textContent()).to.equal('Stopped');
    await screenshot('chrome-run-stopped');
    const stored = await chrome.host.client.as('kim').json('GET', `/runs/${runId}`);
    expect(stored.body).to.deep.include({ state: 'cancelled', ending: 'stopped' });

    await card.getByRole('button', { name: 'Disarm' }).click();
    await card.locator('.badge:has-text("Disarmed")').waitFor();
    expect((await chrome.host.client.as('kim').json('GET', '/automations')).body.automations[0].armed).to.equal(false);
  });

  it('connects an account through the broker’s own page and shows it connected once the poll settles', async () => {
    const session = await chrome.open({ user: 'lee' });
    const { page, screenshot } = session;
    // The broker's consent page opens in its own window; visiting it completes the consent.
    const consent = await connectFromConnectionsPage(session, chrome.host.url, 'github');
    expect(await consent.textContent('body')).to.contain('Done');
    await consent.close();

    await page.waitForSelector('[data-connection-status="active"]');
    expect(await page.locator('[data-connection-status="active"]').textContent()).to.equal('github is connected.');
    expect(await page.getByLabel('Connect an account').inputValue(), 'the field is ready for the next one').to.equal('');
    const listed = page.locator('.card:has-text("github")');
    await listed.locator('.badge:has-text("Connected")').waitFor();
    await screenshot('chrome-connections');
    const connections = (await chrome.host.client.as('lee').json('GET', '/connections')).body.connections;
    expect(connections.map((c: { toolkit: string; status: string }) => [c.toolkit, c.status])).to.deep.equal([['github', 'active']]);

    await listed.getByRole('button', { name: 'Disconnect github' }).click();
    await page.waitForSelector('text=No accounts connected yet.');
  });
});
