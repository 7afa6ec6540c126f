import { expect } from 'chai';
import { pageScan } from '../support/axe.js';
import { chromeSuite } from '../support/browser.js';
import { DEMO_SECRET, deliverDemo } from '../support/signed-delivery.js';
import { FlakyModel } from '../support/flaky-model.js';
import { until } from '../support/eventually.js';
import { webhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import type { WireClient } from '../support/turn-client.js';
import { get } from '../../composition/tokens.js';
import { RUN_TOKENS } from '../../composition/modules/runs-tokens.js';
import { TICK_TOKENS } from '../../composition/modules/tick-tokens.js';
import { containerOf } from '../../composition/porter-container.js';
import { Run } from '../../domain/runs/run.js';

describe('Reliable runs in the shipped chrome: attempts, skipped runs, dry runs, delivery logs, Run again and Dry run (headless Chromium)', function () {
  this.timeout(180_000);
  let receiver: WebhookReceiver;
  let kim: WireClient;
  const runs: { retried?: string; skipped?: string; dry?: string; interrupted?: string } = {};
  const chrome = chromeSuite(async () => {
    receiver = await webhookReceiver([500, 200]);
    return {
      env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET },
      porter: { model: new FlakyModel(4), completionWebhooks: { retryDelaysSeconds: [1] } },
    };
  });
  const deliver = (payload: string): Promise<string[]> => deliverDemo(chrome.host.client.base, payload);
  before(() => someRuns());

  /** A retried run with its completion webhook, and a skipped run, as kim's. */
  async function someRuns(): Promise<void> {
    kim = chrome.host.client.as('kim');

    // A run whose model fails twice, retried at once, with a completion webhook its receiver first refuses.
    const flaky = await kim.json('POST', '/automations', {
      name: 'Flaky ledger',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'Flaky ledger update' },
      retry: { max: 2, backoffSeconds: 0 },
      notify: { url: receiver.url },
    });
    await kim.json('POST', `/automations/${flaky.body.id}/arm`, {});
    [runs.retried] = await deliver('{"ledger":1}');
    await until(
      () => kim.json('GET', `/runs/${runs.retried}`),
      (r) => r.body.webhook?.state === 'delivered',
      { what: 'the retried run and its webhook' },
    );
    await kim.json('POST', `/automations/${flaky.body.id}/disarm`, {});

    // A slow automation that skips what arrives while it runs.
    const busy = await kim.json('POST', '/automations', {
      name: 'One at a time',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: '/slow 2 taking my time with this one' },
      concurrency: { limit: 1, whenBusy: 'skip' },
    });
    await kim.json('POST', `/automations/${busy.body.id}/arm`, {});
    const [first] = await deliver('{"n":1}');
    await until(
      () => kim.json('GET', `/runs/${first}`),
      (r) => r.body.state === 'running',
    );
    [runs.skipped] = await deliver('{"n":2}');
    await until(
      () => kim.json('GET', `/runs/${runs.skipped}`),
      (r) => r.body.state === 'skipped',
    );
    await kim.json('POST', `/automations/${busy.body.id}/disarm`, {});

    // A run whose instance stops mid-way: its lease is handed to an instance that is gone, already
    // lapsed, and the next tick takes it back and tries it again.
    const long = await kim.json('POST', '/automations', {
      name: 'Long reconcile',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: '/slow 2 reconciling the ledger one line at a time' },
    });
    await kim.json('POST', `/automations/${long.body.id}/arm`, {});
    [runs.interrupted] = await deliver('{"reconcile":1}');
    await until(
      () => kim.json('GET', `/runs/${runs.interrupted}`),
      (r) => r.body.state === 'running',
    );
    const container = containerOf(chrome.host.porter);
    const book = get(container, RUN_TOKENS.RunBook);
    const loaded = (await book.find(runs.interrupted!))!;
    const lapsed = { holder: 'a-gone-instance', until: new Date(Date.now() - 1_000).toISOString() };
    await book.swap(loaded, Run.fromPrimitives({ ...loaded.run.toPrimitives(), lease: lapsed }));
    await get(container, TICK_TOKENS.Tick).execute();
    await until(
      () => kim.json('GET', `/runs/${runs.interrupted}`),
      (r) => r.body.state === 'succeeded',
      { what: 'the interrupted run to succeed on its retry' },
    );
    await kim.json('POST', `/automations/${long.body.id}/disarm`, {});
  }

  after(async () => {
    await receiver?.close();
  });

  it('creates an automation with a completion webhook (its secret shown once), dry-runs it from its card and runs the dry run again', async () => {
    const { page, screenshot } = await chrome.open({ user: 'kim' });
    await page.goto(`${chrome.host.url}/#/automations`);
    await page.getByRole('button', { name: 'New automation' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Bank reminder');
    await page.getByLabel('When a webhook arrives').check();
    await page.getByLabel('Task').fill('/call notes_add {"text":"call the bank"}');
    await page.getByRole('checkbox', { name: /notes_add/ }).check();
    await page.getByLabel('If the last run is still going').selectOption('skip');
    await page.getByLabel(/When a run ends, tell this URL/).fill(receiver.url);
    await page.getByRole('button', { name: 'Create automation' }).click();
    const secret = page.locator('[data-notify-secret]');
    await secret.waitFor();
    expect(await secret.locator('code').textContent()).to.match(/^whsec_/);
    const stored = (await kim.json('GET', '/automations')).body.automations.find((a: { name: string }) => a.name === 'Bank reminder');
    expect(stored).to.deep.include({ concurrency: { limit: 1, whenBusy: 'skip' }, retry: { max: 2, backoffSeconds: 30 } });
    expect(stored.notify.url).to.equal(receiver.url);
    await screenshot('chrome-automation-secret-once');
    await page.getByRole('button', { name: 'Done' }).click();
    await secret.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Dry run Bank reminder' }).click();
    await page.waitForURL(/#\/runs\/run_/);
    const preview = page.locator('.preview[data-tool="notes_add"]');
    await preview.waitFor();
    expect(await preview.locator('.preview-text').textContent()).to.equal('Add the note “call the bank”');
    // The heading is written once the run has loaded; wait for it rather than read it mid-render.
    await page.locator('h1', { hasText: 'Dry run of “Bank reminder”' }).waitFor();
    expect(await page.locator('.run-summary .badge').textContent()).to.equal('Dry run: nothing was changed');
    expect(await page.locator('h1').textContent()).to.equal('Dry run of “Bank reminder”');
    runs.dry = decodeURIComponent(page.url().split('/runs/')[1]!);
    await screenshot('chrome-dry-run');

    await page.getByRole('button', { name: 'Dry run again' }).click();
    await page.waitForURL((url) => url.hash.startsWith('#/runs/') && !url.hash.endsWith(runs.dry!));
    await page.locator('.run-summary:has-text("Run again by you")').waitFor();
    await page.locator('.run-summary[data-state="succeeded"]').waitFor();
    await page.locator('.preview[data-tool="notes_add"]').waitFor();
    await page.getByRole('link', { name: 'The run it repeats' }).click();
    await page.waitForURL((url) => url.hash.endsWith(runs.dry!));
  });

  it('shows each attempt of a retried run and its completion webhook’s delivery log, and runs it again', async () => {
    const { page, screenshot } = await chrome.open({ user: 'kim' });
    await page.goto(`${chrome.host.url}/#/runs/${runs.retried}`);
    const attempts = page.locator('.attempt');
    await attempts.nth(2).waitFor();
    expect(await attempts.evaluateAll((items) => items.map((item) => item.getAttribute('data-outcome')))).to.deep.equal([
      'failed',
      'failed',
      'succeeded',
    ]);
    expect(await attempts.first().locator('.attempt-error').textContent()).to.include('The model failed');
    const log = page.locator('.delivery-log tbody tr');
    expect(await log.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-status')))).to.deep.equal(['500', '200']);
    expect(await page.locator('[data-webhook-state]').getAttribute('data-webhook-state')).to.equal('delivered');
    expect(await page.locator('.webhook-summary').textContent()).to.include('run.completed');
    await screenshot('chrome-run-attempts-and-webhook');

    await page.getByRole('button', { name: 'Run again' }).click();
    await page.waitForURL((url) => url.hash.startsWith('#/runs/') && !url.hash.endsWith(runs.retried!));
    await page.locator('.run-summary:has-text("Run again by you")').waitFor();
  });

  it('shows an attempt its instance’s death interrupted, and the retry that went on after it', async () => {
    const { page, screenshot } = await chrome.open({ user: 'kim' });
    await page.goto(`${chrome.host.url}/#/runs/${runs.interrupted}`);
    const attempts = page.locator('.attempt');
    await attempts.nth(1).waitFor();
    expect(await attempts.evaluateAll((items) => items.map((item) => item.getAttribute('data-outcome')))).to.deep.equal([
      'interrupted',
      'succeeded',
    ]);
    expect(await attempts.first().locator('.run-state').textContent()).to.equal('Interrupted');
    expect(await attempts.first().locator('.attempt-error').textContent()).to.equal(
      'The instance executing this run stopped before it finished',
    );
    expect(await attempts.first().textContent()).to.include('after the calls it had finished');
    expect(await page.locator('.run-summary .run-state').textContent()).to.equal('Done');
    await screenshot('chrome-run-interrupted-and-retried');
  });

  it('shows a skipped run as skipped, in the list and on its page', async () => {
    const { page, screenshot } = await chrome.open({ user: 'kim' });
    await page.goto(`${chrome.host.url}/#/automations`);
    const listed = page.locator(`.run[data-run-id="${runs.skipped}"]`);
    expect(await listed.locator('.run-state').textContent()).to.equal('Skipped');
    await listed.getByRole('link').click();
    await page.locator('[data-skipped]').waitFor();
    expect(await page.locator('.run-summary .run-state').textContent()).to.equal('Skipped');
    await screenshot('chrome-run-skipped');
  });

  it('lists the runs even when the server answers more slowly than the page polls', async () => {
    const { page } = await chrome.open({ user: 'kim' });
    // Each answer to the list takes longer than the page's 3 s poll: a poll must not cut it short.
    await page.route(/\/api\/porter\/runs$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      await route.continue();
    });
    await page.goto(`${chrome.host.url}/#/automations`);
    await page.locator(`.run[data-run-id="${runs.skipped}"] .run-state`).waitFor();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`axe-core finds nothing serious or critical on the new views, ${colorScheme}`, async () => {
      const { page } = await chrome.open({ user: 'kim', colorScheme });
      const { found, visit } = pageScan(page, chrome.host.url);
      await visit('run with attempts and a delivery log', `#/runs/${runs.retried}`, '.delivery-log');
      await visit('skipped run', `#/runs/${runs.skipped}`, '[data-skipped]');
      await visit('interrupted and retried run', `#/runs/${runs.interrupted}`, '.attempt[data-outcome="interrupted"]');
      await visit('dry run', `#/runs/${runs.dry}`, '.preview');
      await visit('automations with the new fields and a secret shown once', '#/automations', '.automation', async () => {
        await page.getByRole('button', { name: 'New automation' }).click();
        await page.getByLabel('Name', { exact: true }).fill('Axe check');
        await page.getByLabel('When a webhook arrives').check();
        await page.getByLabel('Task').fill('hello');
        await page.getByLabel(/When a run ends, tell this URL/).fill(receiver.url);
        await page.getByRole('button', { name: 'Create automation' }).click();
        await page.waitForSelector('[data-notify-secret]');
      });
      expect(found).to.deep.equal({});
    });
  }
});
