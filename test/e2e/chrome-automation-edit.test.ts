import { expect } from 'chai';
import { chromeSuite } from '../support/browser.js';

type Automation = { id: string; name: string; trigger: { kind: string; cron?: string }; task: { prompt: string }; retry: { max: number } };

describe('Editing an automation and running it now in the shipped chrome (headless Chromium)', function () {
  this.timeout(120_000);
  // The armed edit's refusal is a 409 the page answers; the browser logs the failed request itself.
  const chrome = chromeSuite(undefined, { ignore: /status of 409 \(Conflict\)/ });

  it('edits an automation in the same form, filled in; an armed one keeps its schedule until disarmed', async () => {
    const wes = chrome.host.client.as('wes');
    const { body: created } = await wes.json<Automation>('POST', '/automations', {
      name: 'Weekly notes',
      trigger: { kind: 'schedule', cron: '0 9 * * 1', timezone: 'UTC' },
      task: { prompt: 'Tidy my notes' },
    });
    const { page, screenshot } = await chrome.open({ user: 'wes' });
    await page.goto(`${chrome.host.url}/#/automations`);
    const card = page.locator(`.automation[data-automation-id="${created.id}"]`);
    await card.getByRole('button', { name: 'Edit Weekly notes' }).click();
    const form = card.getByRole('form', { name: 'Edit Weekly notes' });
    expect(await form.locator('input[name="name"]').inputValue()).to.equal('Weekly notes');
    expect(await form.locator('textarea[name="prompt"]').inputValue()).to.equal('Tidy my notes');
    expect(await form.locator('input[name="cron"]').inputValue()).to.equal('0 9 * * 1');
    await form.locator('input[name="name"]').fill('Friday notes');
    await form.locator('input[name="cron"]').fill('0 17 * * 5');
    await form.getByLabel('After a temporary failure').selectOption('5');
    await screenshot('chrome-automation-edit');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.banner', { hasText: '“Friday notes” was saved.' }).waitFor();
    const { body: saved } = await wes.json<Automation>('GET', `/automations/${created.id}`);
    expect(saved).to.deep.include({ name: 'Friday notes' });
    expect(saved.trigger.cron).to.equal('0 17 * * 5');
    expect(saved.retry.max).to.equal(5);

    // Armed, its name changes; its schedule does not, and the page says why.
    expect((await wes.json('POST', `/automations/${created.id}/arm`, {})).status).to.equal(200);
    await page.reload();
    await card.getByRole('button', { name: 'Edit Friday notes' }).click();
    const armedForm = card.getByRole('form', { name: 'Edit Friday notes' });
    await armedForm.locator('input[name="cron"]').fill('0 18 * * 5');
    await armedForm.getByRole('button', { name: 'Save changes' }).click();
    await armedForm.locator('.inline-error, [role="alert"]').first().waitFor();
    expect((await wes.json<Automation>('GET', `/automations/${created.id}`)).body.trigger.cron).to.equal('0 17 * * 5');
  });

  it('"Run now" starts a real run and opens it; a dry run offers one dry-run control', async () => {
    const xia = chrome.host.client.as('xia');
    const { body: created } = await xia.json<Automation>('POST', '/automations', {
      name: 'Echo now',
      trigger: { kind: 'schedule', cron: '0 3 * * *' },
      task: { prompt: 'say hello' },
    });
    const { page, screenshot } = await chrome.open({ user: 'xia' });
    await page.goto(`${chrome.host.url}/#/automations`);
    await page.getByRole('button', { name: 'Run now: Echo now' }).click();
    await page.waitForURL(/#\/runs\/run_/);
    await page.locator('.run-summary[data-state="succeeded"]').waitFor();
    expect(await page.locator('.page').textContent()).to.contain('Started by you with Run now');
    const runId = decodeURIComponent(new URL(page.url()).hash.split('/').pop()!);
    const { body: run } = await xia.json<{ dryRun: boolean; cause: { kind: string; venue: string } }>('GET', `/runs/${runId}`);
    expect(run.dryRun).to.equal(false);
    expect(run.cause).to.deep.equal({ kind: 'run-now', venue: 'wire' });
    // A real run offers Run again and Dry run (drawn with the run's end, maybe a moment after its state).
    await page.getByRole('button', { name: 'Run again' }).waitFor();
    expect(await page.getByRole('button', { name: 'Run again' }).count()).to.equal(1);
    expect(await page.getByRole('button', { name: 'Dry run', exact: true }).count()).to.equal(1);

    await page.getByRole('button', { name: 'Dry run', exact: true }).click();
    await page.locator('.run-summary .badge', { hasText: 'Dry run' }).waitFor();
    await screenshot('chrome-dry-run-controls');
    // A dry run: "Dry run again" and no second dry-run button beside it.
    expect(await page.getByRole('button', { name: 'Dry run again' }).count()).to.equal(1);
    expect(await page.getByRole('button', { name: 'Dry run', exact: true }).count()).to.equal(0);
    expect(created.id).to.match(/^atm_/);
  });
});
