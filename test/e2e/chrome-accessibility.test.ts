import { expect } from 'chai';
import { axeViolations } from '../support/axe.js';
import { PacedScriptedModel, SCREENSHOTS, chromeSuite } from '../support/browser.js';
import { DEMO_SECRET, sendSigned } from '../support/signed-delivery.js';

/** An answer with every kind of Markdown a reader must reach: headings, a task list, wide code, a table. */
const RICH_ANSWER = [
  'Release plan',
  '',
  '### Summary',
  '',
  'Two steps, one owner each.',
  '',
  '# Steps',
  '',
  '#### The list',
  '',
  '- [ ] write the notes',
  '- [x] tag the release',
  '',
  '```ts',
  `const everyStepOfTheReleaseInOneLongLine = ['${'checkout, build, test, tag, publish, announce, '.repeat(4)}'];`,
  '```',
  '',
  '| Step | Owner | When | What it needs | Where it runs |',
  '| ---- | ----- | ---- | ------------- | ------------- |',
  '| Build | Ada Lovelace | Monday morning | A clean checkout | Continuous integration |',
  '| Publish | Grace Hopper | Tuesday afternoon | The signed tarball | The package registry |',
].join('\n');

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } } as const;

describe('Accessibility of every page and state of the shipped chrome: axe-core finds no violation of any impact (headless Chromium)', function () {
  this.timeout(300_000);
  const chrome = chromeSuite(() => ({
    env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET },
    porter: { model: new PacedScriptedModel(5) },
    demoBroker: true,
  }));
  const threads: Record<'rich' | 'write' | 'destructive', string> = { rich: '', write: '', destructive: '' };
  before(() => somethingOnEveryPage());

  async function somethingOnEveryPage(): Promise<void> {
    // Something on every page: answers with Markdown of every kind, a card of every risk waiting, a
    // grant, a memory, an app, an automation with a run, a connection.
    const ada = chrome.host.client.as('ada');
    const rich = await ada.newThread();
    threads.rich = rich;
    await ada.say(rich, RICH_ANSWER);
    await ada.say(rich, '/call memory_save {"text":"Ada reads with a screen reader"}');
    await ada.say(rich, '/call notes_add {"text":"axe"}');
    threads.write = rich;
    threads.destructive = await ada.newThread();
    await ada.say(threads.destructive, 'Clear them');
    await ada.say(threads.destructive, '/call notes_clear {}');
    const granted = await ada.say(await ada.newThread(), '/call notes_clear {}');
    const approvalId = (granted.message.parts.find((p) => p.type === 'data-porter-approval') as { data: { approvalId: string } }).data
      .approvalId;
    await ada.json('POST', `/approvals/${approvalId}/decide`, { approve: true, remember: { scope: 'tool', duration: 'session' } });
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
    for (const size of ['desktop', 'phone'] as const) {
      it(`every page and state, ${size}, ${colorScheme}: nothing axe-core can find, a screenshot of each kept`, async () => {
        const { page } = await chrome.open({ user: 'ada', colorScheme, viewport: SIZES[size] });
        const ada = chrome.host.client.as('ada');
        const [app] = (await ada.json('GET', '/apps')).body.apps;
        const [run] = (await ada.json('GET', '/runs')).body.runs;
        const found: Record<string, string[]> = {};
        const visit = async (name: string, hash: string, ready: string, act?: () => Promise<void>) => {
          await page.goto(`${chrome.host.url}/${hash}`);
          await page.waitForSelector(ready);
          await act?.();
          const violations = await axeViolations(page);
          if (violations.length) found[name] = violations;
          await page.screenshot({ path: `${SCREENSHOTS}axe-${name.replaceAll(' ', '-')}-${size}-${colorScheme}.png`, fullPage: true });
        };
        await visit('home', '#/', '.suggestion');
        await visit(
          'rich answer with a write card',
          `#/t/${threads.rich}`,
          '.approval-card[data-approval-state="pending"] .badge.risk-write',
          () => page.waitForSelector('.markdown .contains-task-list').then(() => undefined),
        );
        // The answer's headings sit under the page's h1, no level skipped, whatever levels it wrote.
        const outline = await page
          .locator('.message.assistant .markdown')
          .first()
          .evaluate((m) => [...m.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => h.tagName));
        expect(outline).to.deep.equal(['H2', 'H2', 'H3']);
        await visit(
          'destructive card',
          `#/t/${threads.destructive}`,
          '.approval-card[data-approval-state="pending"] .badge.risk-destructive',
        );
        await visit('approvals', '#/approvals', '.approval-card .badge.risk-destructive');
        await visit('grants', '#/grants', '.grant');
        await visit('memories', '#/memories', '.memory');
        await visit('apps', '#/apps', '.card-link');
        await visit('app', `#/apps/${app.id}`, '.app-page-canvas');
        await visit('automations', '#/automations', '.automation', async () => {
          await page.getByRole('button', { name: 'New automation' }).click();
          await page.waitForSelector('.tool-option');
        });
        await visit('run', `#/runs/${run.id}`, '.run-summary');
        await visit('connections', '#/connections', 'form[aria-label="New connection"]');
        await visit('shortcuts', '#/', '.suggestion', async () => {
          await page.keyboard.press('Control+/');
          await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
        });
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        if (size === 'phone')
          await visit('phone menu', '#/', '.suggestion', async () => {
            await page.getByRole('button', { name: 'Open navigation' }).click();
            await page.waitForSelector('.drawer-open');
          });
        expect(found).to.deep.equal({});
      });
    }
  }

  it('a served app’s page too, framed in the chrome, in both colour schemes: its page has an h1', async function () {
    const { bubblewrapSupport } = await import('../../adapters/sandbox/local/bubblewrap-command.js');
    if (!bubblewrapSupport().available) this.skip();
    const bo = chrome.host.client.as('bo');
    // The paced model writes its garden planner for any app.
    const app = (await bo.json('POST', '/apps', { prompt: 'a garden planner' })).body;
    expect((await bo.json('POST', `/apps/${app.id}/graduate`, {})).status).to.equal(200);
    await bo.json('PUT', `/apps/${app.id}/records/plants`, { data: { name: 'Tomatoes', bed: 'North' } });
    const { page } = await chrome.open({ user: 'bo' });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto(`${chrome.host.url}/#/apps/${app.id}`);
      await page.frameLocator('iframe.app-frame').locator('.item').waitFor();
      const frame = page.frames().find((f) => f.url().includes('/view/'))!;
      expect(await frame.locator('h1').count()).to.equal(1);
      expect(await axeViolations(frame)).to.deep.equal([]);
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.screenshot({ path: `${SCREENSHOTS}axe-served-app-${colorScheme}.png`, fullPage: true });
    }
  });
});
