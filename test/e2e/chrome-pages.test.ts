import { expect } from 'chai';
import { PacedScriptedModel, chromeSuite, say } from '../support/browser.js';
import { DEMO_SECRET, deliverDemo } from '../support/signed-delivery.js';
import { numberedWords } from '../support/numbered-words.js';
import { createArmed } from '../support/armed-automation.js';

describe('Grants, runs, thread names, badges and the automation form in the shipped chrome (headless Chromium)', function () {
  this.timeout(120_000);
  const chrome = chromeSuite(() => ({ env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET }, porter: { model: new PacedScriptedModel(60) } }));
  const deliver = (payload: string): Promise<string[]> => deliverDemo(chrome.host.client.base, payload);

  it('counts a parked call in the Approvals badge the moment it parks, and drops it the moment it is answered', async () => {
    const { page } = await chrome.open({ user: 'abe' });
    await say(page, '/call notes_add {"text":"badge"}');
    const badge = page.locator('.nav-link:has-text("Approvals") .count');
    // Well inside the sidebar's 10 s poll: the page told the badge itself.
    await badge.waitFor({ timeout: 8000 });
    expect(await badge.textContent()).to.equal('1');
    await page.locator('.approval-card[data-approval-state="pending"]').getByRole('button', { name: 'Approve' }).click();
    await badge.waitFor({ state: 'detached', timeout: 8000 });
  });

  it('opens the place the address names when it changes while the page starts (before the chrome listens for changes)', async () => {
    const { page, context } = await chrome.open({ user: 'ida' });
    // The address moves to the Approvals page as the chrome begins to listen, and its change event
    // is over before the listener is in place: a busy browser can run them in this order.
    await context.addInitScript(() => {
      const add = window.addEventListener.bind(window);
      window.addEventListener = ((type: string, listener: EventListener, options?: AddEventListenerOptions) => {
        if (type !== 'hashchange' || location.hash === '#/approvals') return add(type, listener, options);
        location.hash = '#/approvals';
        setTimeout(() => add(type, listener, options), 200);
      }) as typeof window.addEventListener;
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
  });

  it('lists grants by tool with what each covers, including an automation-only one, and revokes one', async () => {
    const gus = chrome.host.client.as('gus');
    // A conversation grant (this tool, always) and an automation's standing grant.
    const thread = await gus.newThread();
    const parked = await gus.say(thread, '/call notes_add {"text":"x"}');
    const approvalId = (parked.message.parts.find((p) => p.type === 'data-porter-approval') as { data: { approvalId: string } }).data
      .approvalId;
    await gus.json('POST', `/approvals/${approvalId}/decide`, { approve: true, remember: { scope: 'tool', duration: 'standing' } });
    await createArmed(gus, {
      name: 'Nightly tidy',
      trigger: { kind: 'schedule', cron: '0 3 * * *' },
      task: { prompt: 'tidy', tools: ['notes_clear'] },
    });

    const { page, screenshot } = await chrome.open({ user: 'gus' });
    await page.getByRole('link', { name: 'Grants' }).click();
    const add = page.locator('.grant-group[data-tool="notes_add"] .grant');
    await add.waitFor();
    expect(await add.locator('.card-title').textContent()).to.equal('Use notes_add with any input, from now on');
    expect(await add.locator('[data-applies-to]').textContent()).to.equal('Anywhere');
    const clear = page.locator('.grant-group[data-tool="notes_clear"] .grant');
    expect(await clear.locator('[data-applies-to="automation"]').textContent()).to.equal('Only when “Nightly tidy” runs');
    await screenshot('chrome-grants');

    await add.getByRole('button', { name: /Revoke notes_add/ }).click();
    await page.waitForSelector('text=Revoked: notes_add will ask again.');
    await add.waitFor({ state: 'detached' });
    const left = (await gus.json('GET', '/grants')).body.grants.map((g: { tool: string }) => g.tool);
    expect(left).to.deep.equal(['notes_clear']);
    // Revoked means it asks again.
    const again = await gus.say(await gus.newThread(), '/call notes_add {"text":"y"}');
    expect(again.message.parts.some((p) => p.type === 'data-porter-approval')).to.equal(true);
  });

  it('opens a run from the automations page: its Stop button, then its transcript', async () => {
    const ivy = chrome.host.client.as('ivy');
    const words = numberedWords('w', 90);
    const { armed } = await createArmed(ivy, {
      name: 'Echo deliveries',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: `Say: ${words}` },
    });
    expect(armed.status).to.equal(200);
    const [runId] = await deliver('{"n":1}');

    const { page, screenshot } = await chrome.open({ user: 'ivy' });
    await page.goto(`${chrome.host.url}/#/automations`);
    await page.locator(`.run[data-run-id="${runId}"] a.run-name`).click();
    await page.waitForSelector('.page-title:has-text("Run of “Echo deliveries”")');
    await page.waitForSelector('.run-summary[data-state="running"]');
    await screenshot('chrome-run-page');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.waitForSelector('.run-summary[data-state="cancelled"]');
    const transcript = page.locator('.transcript');
    await transcript.locator('.message.user:has-text("Say: w0 w1")').waitFor();
    await transcript.locator('.message.assistant .markdown:has-text("w0")').waitFor();
    expect(await page.locator('.run-summary .run-state').textContent()).to.equal('Stopped');
    expect(await page.getByRole('button', { name: 'Stop' }).count(), 'nothing left to stop').to.equal(0);
    expect((await ivy.json('GET', `/runs/${runId}`)).body).to.deep.include({ state: 'cancelled', ending: 'stopped' });
  });

  it('renames a conversation from its header and finds it by searching the sidebar', async () => {
    const { page, screenshot } = await chrome.open({ user: 'ron' });
    await say(page, 'first thing');
    await page.waitForSelector('.message.assistant[aria-busy="false"]');
    await page.goto(`${chrome.host.url}/#/`);
    await say(page, 'second thing');
    await page.waitForSelector('.message.assistant[aria-busy="false"]');

    await page.getByRole('button', { name: 'Rename conversation' }).click();
    await page.getByLabel('Conversation title').fill('Holiday plans');
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1.page-title:has-text("Holiday plans")');
    await page.waitForSelector('.thread-link:has-text("Holiday plans")');

    await page.getByLabel('Search conversations').fill('holiday');
    await page.waitForFunction(() => document.querySelectorAll('.thread-link').length === 1);
    expect(await page.locator('.thread-link .thread-title').allTextContents()).to.deep.equal(['Holiday plans']);
    await screenshot('chrome-thread-search');
    // A word said inside the conversation finds it too, highlighted in a snippet.
    await say(page, 'Pelicans are welcome at the lake');
    await page.waitForFunction(() => document.querySelectorAll('.message.assistant[aria-busy="false"]').length === 2);
    await page.getByLabel('Search conversations').fill('pelic');
    await page.waitForSelector('.thread-link .thread-snippet mark:text-is("Pelicans")');
    expect(await page.locator('.thread-link .thread-title').allTextContents()).to.deep.equal(['Holiday plans']);
    expect(await page.locator('.thread-link .thread-snippet').first().textContent()).to.contain('Pelicans are welcome at the lake');
    await screenshot('chrome-thread-search-words');
    await page.getByLabel('Search conversations').fill('nothing like it');
    await page.waitForSelector('text=No conversation mentions “nothing like it”.');
    await page.getByLabel('Search conversations').fill('');
    await page.waitForFunction(() => document.querySelectorAll('.thread-link').length === 2);
  });

  it('builds an automation with a preset, a cron preview in words, friendly errors, a time-zone picker and tools from the host', async () => {
    const { page, screenshot } = await chrome.open({ user: 'una' });
    await page.goto(`${chrome.host.url}/#/automations`);
    await page.getByRole('button', { name: 'New automation' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Weekday digest');
    await page.getByLabel('How often').selectOption({ label: 'Every weekday at 9:00' });
    const cron = page.getByLabel(/^Schedule/);
    expect(await cron.inputValue()).to.equal('0 9 * * 1-5');
    const preview = page.locator('[data-cron-preview]');
    await page.getByLabel('Time zone').selectOption('Europe/Paris');
    expect(await preview.textContent()).to.equal('At 09:00, Monday through Friday, Europe/Paris time');
    const zones = await page.locator('select[name="timezone"] option').count();
    expect(zones, 'every zone the browser knows').to.be.greaterThan(300);

    await cron.fill('0 8 * *');
    expect(await preview.textContent()).to.contain('A schedule has five parts');
    expect(await preview.textContent()).to.not.contain('space separated');
    expect(await page.getByLabel('How often').inputValue()).to.equal('custom');
    await cron.fill('0 25 * * *');
    expect(await preview.textContent()).to.contain('cannot be read');
    await page.getByLabel('Task').fill('Summarise my notes');
    await page.getByRole('button', { name: 'Create automation' }).click();
    await page.waitForSelector('.inline-error:has-text("cannot be read")');
    await screenshot('chrome-automation-form-error');

    await cron.fill('30 7 * * 1');
    expect(await preview.textContent()).to.equal('At 07:30, only on Monday, Europe/Paris time');
    const tools = await page.locator('.tool-option code').allTextContents();
    expect(tools).to.include.members(['notes_add', 'notes_list', 'web_fetch']);
    expect(tools.some((t) => t.startsWith('porter_'))).to.equal(false);
    await page.getByRole('checkbox', { name: /notes_list/ }).check();
    await page.getByRole('checkbox', { name: /notes_add/ }).check();
    await screenshot('chrome-automation-form');
    await page.getByRole('button', { name: 'Create automation' }).click();
    const card = page.locator('.automation:has-text("Weekday digest")');
    await card.waitFor();
    expect(await card.locator('.card-meta').textContent()).to.contain('At 07:30, only on Monday (Europe/Paris)');
    const [stored] = (await chrome.host.client.as('una').json('GET', '/automations')).body.automations;
    expect(stored.trigger).to.deep.equal({ kind: 'schedule', cron: '30 7 * * 1', timezone: 'Europe/Paris' });
    expect(stored.task.tools).to.have.members(['notes_list', 'notes_add']);
  });

  it('answers a bad schedule from the wire in words too, never croner’s own text', async () => {
    const refused = await chrome.host.client.as('una').json('POST', '/automations', {
      name: 'Broken',
      trigger: { kind: 'schedule', cron: '0 8 * *', timezone: 'Mars/Olympus' },
      task: { prompt: 'x' },
    });
    expect(refused.status).to.equal(400);
    expect(JSON.stringify(refused.body)).to.contain('a schedule has five parts');
    expect(JSON.stringify(refused.body)).to.not.contain('space separated');
  });
});
