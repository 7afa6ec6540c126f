import { expect } from 'chai';
import { axeViolations } from '../support/axe.js';
import { chromeSuite, say } from '../support/browser.js';
import { until } from '../support/eventually.js';
import { DEMO_SECRET, deliverDemo } from '../support/signed-delivery.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import { demoTools } from '../../composition/dev-host/demo-tools.js';

/** A read tool whose service is down: every call throws. */
const brokenLookup: ToolDefinition = {
  name: 'orders_lookup',
  description: 'Look up this week’s orders',
  inputSchema: { type: 'object', additionalProperties: true },
  risk: 'read',
  async execute() {
    throw new Error('The orders service answered 503');
  },
};

const PHONE = { width: 360, height: 740 };
/** A cap, not a pace: the page learns of what happened elsewhere from its next look, slower on a busy machine. */
const DECIDED_ELSEWHERE_MS = 90_000;

describe('Status that tells the truth, and connections picked from the broker (headless Chromium)', function () {
  this.timeout(180_000);
  const chrome = chromeSuite(() => ({
    env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET },
    demoBroker: true,
    porter: { tools: [...demoTools(), brokenLookup] },
  }));

  it('a run whose only tool call failed shows “Finished with failed calls” on its page and in the runs list, never a green Done', async () => {
    const rae = chrome.host.client.as('rae');
    const created = await rae.json('POST', '/automations', {
      name: 'Weekly orders',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: '/call orders_lookup {"week":"this"}', tools: ['orders_lookup'] },
    });
    await rae.json('POST', `/automations/${created.body.id}/arm`, {});
    const [runId] = await deliverDemo(chrome.host.client.base, '{"week":"this"}');
    const ended = await until(
      () => rae.json('GET', `/runs/${runId}`),
      (r) => r.body.state === 'succeeded' || r.body.state === 'failed',
      { timeoutMs: DECIDED_ELSEWHERE_MS, what: 'the run to end' },
    );
    expect(ended.body).to.deep.include({ state: 'succeeded', failedCalls: 1 });

    for (const [viewport, colorScheme] of [
      [undefined, 'light'],
      [PHONE, 'dark'],
    ] as const) {
      const { page, screenshot } = await chrome.open({ user: 'rae', colorScheme, ...(viewport ? { viewport } : {}) });
      await page.goto(`${chrome.host.url}/#/runs/${runId}`);
      const status = page.locator('.run-summary [data-run-status]');
      await status.waitFor();
      expect(await status.textContent()).to.equal('Finished with failed calls');
      expect(await status.getAttribute('data-run-status')).to.equal('partial');
      expect(await page.locator('[data-failed-calls="1"]').textContent()).to.contain('one of its tool calls failed');
      await page.locator('.tool[data-tool="orders_lookup"][data-state="output-error"]').waitFor();
      expect(await axeViolations(page), 'the run page').to.deep.equal([]);
      await screenshot(`chrome-run-failed-call-${colorScheme}`);

      await page.goto(`${chrome.host.url}/#/automations`);
      const listed = page.locator(`.run[data-run-id="${runId}"] [data-run-status]`);
      await listed.waitFor();
      expect(await listed.textContent()).to.equal('Finished with failed calls');
      expect(await page.locator(`.run[data-run-id="${runId}"]`).textContent()).to.not.contain('Done');
      expect(await axeViolations(page), 'the automations page').to.deep.equal([]);
    }
  });

  it('an approval decided elsewhere updates the open conversation, and the turn carries on by itself', async () => {
    const { page, screenshot } = await chrome.open({ user: 'uma' });
    await say(page, '/call notes_add {"text":"decided elsewhere"}');
    const card = page.locator('.approval-card[data-approval-state="pending"]');
    await card.waitFor();
    await page.waitForSelector('.message.assistant[aria-busy="false"]');
    const uma = chrome.host.client.as('uma');
    const [parked] = (await uma.json('GET', '/approvals')).body.approvals as Array<{ id: string }>;
    // Another tab, device or the Approvals page decides it.
    expect((await uma.json('POST', `/approvals/${parked!.id}/decide`, { approve: true })).status).to.equal(200);

    // No Continue click: the call runs and the answer goes on.
    const call = page.locator('.tool[data-tool="notes_add"]');
    await page.waitForSelector('.tool[data-tool="notes_add"][data-state="output-available"]', { timeout: DECIDED_ELSEWHERE_MS });
    expect(await call.locator('.tool-status').textContent()).to.equal('Done');
    expect(await page.locator('text=Needs your approval').count()).to.equal(0);
    expect(await page.locator('.continue-bar').count()).to.equal(0);
    expect((await uma.json('GET', '/approvals')).body.approvals).to.deep.equal([]);
    await screenshot('chrome-approval-decided-elsewhere');
  });

  it('with the conversation open in two tabs, a decision made elsewhere carries the turn on once: both tabs show it, neither shows an error', async () => {
    const first = await chrome.open({ user: 'wyn' });
    await say(first.page, '/call notes_add {"text":"two tabs"}');
    await first.page.locator('.approval-card[data-approval-state="pending"]').waitFor();
    await first.page.waitForSelector('.message.assistant[aria-busy="false"]');
    const second = await first.context.newPage();
    await second.goto(first.page.url());
    await second.locator('.approval-card[data-approval-state="pending"]').waitFor();
    const wyn = chrome.host.client.as('wyn');
    const [parked] = (await wyn.json('GET', '/approvals')).body.approvals as Array<{ id: string }>;
    await wyn.json('POST', `/approvals/${parked!.id}/decide`, { approve: true });

    for (const page of [first.page, second]) {
      await page.waitForSelector('.tool[data-tool="notes_add"][data-state="output-available"]', { timeout: DECIDED_ELSEWHERE_MS });
      await page.waitForSelector('.message.assistant[aria-busy="false"]');
      expect(await page.locator('.chat .banner.error').count(), 'no “already being written” error').to.equal(0);
    }
    const thread = decodeURIComponent(new URL(first.page.url()).hash.split('/')[2]!);
    const stored = (await wyn.json('GET', `/threads/${thread}`)).body.messages as Array<{ role: string; parts: Array<{ type: string }> }>;
    const calls = stored.flatMap((m) => m.parts).filter((p) => p.type === 'tool-notes_add');
    expect(calls, 'the call ran once').to.have.length(1);
  });

  it('a denial made elsewhere replaces “Needs your approval” with the verdict, and the answer goes on without the call', async () => {
    const { page } = await chrome.open({ user: 'vic' });
    await say(page, '/call notes_add {"text":"denied elsewhere"}');
    await page.locator('.approval-card[data-approval-state="pending"]').waitFor();
    await page.waitForSelector('.message.assistant[aria-busy="false"]');
    const vic = chrome.host.client.as('vic');
    const [parked] = (await vic.json('GET', '/approvals')).body.approvals as Array<{ id: string }>;
    await vic.json('POST', `/approvals/${parked!.id}/decide`, { approve: false });

    // The card gives way to the verdict, and the turn carries on past the denied call.
    await page.waitForSelector('.tool[data-tool="notes_add"][data-state="output-denied"]', { timeout: DECIDED_ELSEWHERE_MS });
    expect(await page.locator('text=Needs your approval').count()).to.equal(0);
    expect(await page.locator('.tool[data-tool="notes_add"] .tool-status').textContent()).to.equal('Denied · not run');
  });

  it('offers the broker’s toolkits to pick from, and the sign-in window closes itself once back', async () => {
    for (const viewport of [undefined, PHONE]) {
      const session = await chrome.open({ user: viewport ? 'wes' : 'xia', ...(viewport ? { viewport } : {}) });
      const { page, screenshot } = session;
      await page.goto(`${chrome.host.url}/#/connections`);
      const picker = page.getByLabel('Connect an account');
      await page.locator('select#toolkit option[value="demo-calendar"]').waitFor({ state: 'attached' });
      expect(await picker.evaluate((select) => [...(select as HTMLSelectElement).options].map((o) => o.textContent))).to.deep.equal([
        'Choose a service…',
        'Demo calendar',
      ]);
      expect(await axeViolations(page), 'the connections page').to.deep.equal([]);
      await screenshot(`chrome-connections-picker${viewport ? '-phone' : ''}`);

      await picker.selectOption('demo-calendar');
      const opened = session.context.waitForEvent('page');
      await page.getByRole('button', { name: 'Connect' }).click();
      const popup = await opened;
      await popup.waitForURL((url) => url.href !== 'about:blank');
      const closed = popup.waitForEvent('close');
      await popup.getByRole('button', { name: 'Allow' }).click();
      await closed;
      await page.waitForSelector('[data-connection-status="active"]', { timeout: DECIDED_ELSEWHERE_MS });
      await page.locator('.card:has-text("Demo calendar") .badge:has-text("Connected")').waitFor();
    }
  });
});
