import { expect } from 'chai';
import { pageScan, seriousViolations } from '../support/axe.js';
import { PacedScriptedModel, chromeSuite } from '../support/browser.js';
import { DEMO_SECRET, sendSigned } from '../support/signed-delivery.js';

describe('Accessibility of every page of the shipped chrome: axe-core finds nothing serious or critical (headless Chromium)', function () {
  this.timeout(120_000);
  const chrome = chromeSuite(() => ({
    env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET },
    porter: { model: new PacedScriptedModel(5) },
    demoBroker: true,
  }));
  before(() => somethingOnEveryPage());

  async function somethingOnEveryPage(): Promise<void> {
    // Something on every page: a conversation with an answer and a waiting card, a grant, an app,
    // an automation with a run, a connection.
    const ada = chrome.host.client.as('ada');
    const thread = await ada.newThread();
    await ada.say(
      thread,
      'Some **bold** words and a [link](https://example.com).\n\n```ts\nconst x = 1;\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |',
    );
    await ada.say(thread, '/call notes_add {"text":"axe"}');
    const granted = await ada.say(await ada.newThread(), '/call notes_clear {}');
    const approvalId = (granted.message.parts.find((p) => p.type === 'data-porter-approval') as { data: { approvalId: string } }).data
      .approvalId;
    await ada.json('POST', `/approvals/${approvalId}/decide`, { approve: true, remember: { scope: 'tool', duration: 'standing' } });
    await ada.json('POST', '/apps', { prompt: 'a todo list' });
    const automation = await ada.json('POST', '/automations', {
      name: 'On deliveries',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'Say hello' },
    });
    await ada.json('POST', `/automations/${automation.body.id}/arm`, {});
    await sendSigned(`${chrome.host.client.base}/webhooks/demo`, DEMO_SECRET, '{}', 'msg_axe');
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`every page, ${colorScheme}: home, a conversation with its card, approvals, grants, apps, an app, automations with the form, a run, connections`, async () => {
      const { page } = await chrome.open({ user: 'ada', colorScheme });
      const ada = chrome.host.client.as('ada');
      const [thread] = (await ada.json('GET', '/threads')).body.threads.filter((t: { title: string }) => t.title.startsWith('Some'));
      const [app] = (await ada.json('GET', '/apps')).body.apps;
      const [run] = (await ada.json('GET', '/runs')).body.runs;
      const { found, visit } = pageScan(page, chrome.host.url);
      await visit('home', '#/', '.suggestion');
      await visit('conversation', `#/t/${thread.id}`, '.approval-card[data-approval-state="pending"]');
      await visit('approvals', '#/approvals', '.approval-card');
      await visit('grants', '#/grants', '.grant');
      await visit('apps', '#/apps', '.card-link');
      await visit('app', `#/apps/${app.id}`, '.app-page-canvas');
      await visit('automations', '#/automations', '.automation', async () => {
        await page.getByRole('button', { name: 'New automation' }).click();
        await page.waitForSelector('.tool-option');
      });
      await visit('run', `#/runs/${run.id}`, '.run-summary');
      await visit('connections', '#/connections', 'form[aria-label="New connection"]');
      await page.setViewportSize({ width: 390, height: 844 });
      await visit('phone drawer', '#/', '.suggestion', async () => {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await page.waitForSelector('.drawer-open');
      });
      expect(found).to.deep.equal({});
    });
  }

  it('a served app’s page too, framed in the chrome', async function () {
    const { bubblewrapSupport } = await import('../../adapters/sandbox/local/bubblewrap-command.js');
    if (!bubblewrapSupport().available) this.skip();
    const bo = chrome.host.client.as('bo');
    // The paced model writes its garden planner for any app.
    const app = (await bo.json('POST', '/apps', { prompt: 'a garden planner' })).body;
    expect((await bo.json('POST', `/apps/${app.id}/graduate`, {})).status).to.equal(200);
    await bo.json('PUT', `/apps/${app.id}/records/plants`, { data: { name: 'Tomatoes', bed: 'North' } });
    const { page } = await chrome.open({ user: 'bo' });
    await page.goto(`${chrome.host.url}/#/apps/${app.id}`);
    await page.frameLocator('iframe.app-frame').locator('.item').waitFor();
    const frame = page.frames().find((f) => f.url().includes('/view/'))!;
    expect(await seriousViolations(frame)).to.deep.equal([]);
    expect(await seriousViolations(page)).to.deep.equal([]);
  });
});
