import { expect } from 'chai';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import type { ServedApp } from '../../../adapters/apps/served-page-runtime.js';
import { inlineServedPageScript, SERVED_PAGE_GLOBAL } from '../../../adapters/apps/served-page-script.js';
import { SERVED_PAGE_STYLE } from '../../../adapters/apps/served-page-style.js';
import { launchChromium, needsChromium } from '../../support/browser.js';

/** A todo app as graduation serves it: a form adding items, the items listed with Remove, a tool action. */
const TODO: ServedApp = {
  title: 'Todo',
  root: 'root',
  nodes: {
    root: { type: 'stack', children: ['title', 'form', 'items', 'send'] },
    title: { type: 'heading', props: { text: 'Things to do' } },
    form: { type: 'form', action: 'add', children: ['text', 'add'] },
    text: { type: 'input', props: { name: 'text', label: 'Add an item' } },
    add: { type: 'button', props: { label: 'Add' } },
    items: { type: 'list', bind: 'items', action: 'remove', props: { empty: 'Nothing yet' } },
    send: { type: 'button', action: 'send', props: { label: 'Send the list' } },
  },
  data: { items: { collection: 'items' } },
  actions: {
    add: { kind: 'put-record', collection: 'items' },
    remove: { kind: 'delete-record', collection: 'items' },
    send: { kind: 'tool', tool: 'gmail_send' },
  },
};

/** An app of every other kind of node: fields, a grid of cards, a table and a chart of its records, a link and an image. */
const KITCHEN: ServedApp = {
  title: 'Kitchen',
  root: 'root',
  nodes: {
    root: { type: 'grid', props: { columns: 3 }, children: ['card', 'table', 'chart', 'safe', 'unsafe', 'image', 'odd'] },
    card: { type: 'card', props: { title: 'New dish' }, children: ['kind', 'spicy', 'notes', 'when', 'save'] },
    kind: { type: 'select', props: { name: 'kind', label: 'Kind', options: 'Soup, Main | Dessert' } },
    spicy: { type: 'checkbox', props: { name: 'spicy', label: 'Spicy', checked: true } },
    notes: { type: 'textarea', props: { name: 'notes', placeholder: 'Notes' } },
    when: { type: 'input', props: { name: 'when', label: 'When', inputType: 'date' } },
    save: { type: 'button', action: 'add', props: { label: 'Save' } },
    table: { type: 'table', bind: 'dishes', props: { caption: 'Dishes', columns: 'kind, spicy' } },
    chart: { type: 'chart', bind: 'dishes', props: { title: 'Heat', valueKey: 'heat', labelKey: 'kind' } },
    safe: { type: 'link', props: { text: 'Recipe', href: 'https://example.com/recipe' } },
    unsafe: { type: 'link', props: { text: 'Click me', href: 'javascript:alert(1)' } },
    image: { type: 'image', props: { src: 'data:image/svg+xml,<svg/>', alt: 'A dish' } },
    odd: { type: 'carousel', children: [] },
  },
  data: { dishes: { collection: 'items' } },
  actions: { add: { kind: 'put-record', collection: 'items' } },
};

/** The served page's document, as Porter's static server sends it (its script the bundled runtime). */
function servedPage(app: ServedApp): string {
  const start = `${SERVED_PAGE_GLOBAL}.startServedPage(JSON.parse(document.getElementById('porter-app').textContent));`;
  return (
    `<!doctype html><html lang="en"><meta charset="utf-8"><style>${SERVED_PAGE_STYLE}</style>` +
    `<main id="app" aria-busy="true"></main>` +
    `<script type="application/json" id="porter-app">${JSON.stringify(app).replace(/</g, '\\u003c')}</script>` +
    `<script>${inlineServedPageScript(start)}</script></html>`
  );
}

/**
 * The page that frames it, as the chrome does: the served page in a sandboxed frame (an opaque
 * origin), its bridge answered from records held here; a tool action is refused.
 */
function framingPage(app: ServedApp): string {
  const frame = servedPage(app).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<!doctype html><html><body><iframe sandbox="allow-scripts allow-forms" srcdoc="${frame}"></iframe><script>
    window.records = { items: [{ id: 'rec_1', data: { text: 'Buy bread' } }] };
    window.asked = [];
    let next = 2;
    addEventListener('message', (event) => {
      const m = event.data;
      if (!m || m.porter !== 'porter-app-bridge' || typeof m.id !== 'number') return;
      window.asked.push(m.op);
      const reply = (answer) => event.source.postMessage({ porter: 'porter-app-bridge', id: m.id, ...answer }, '*');
      const items = (window.records[m.collection] ??= []);
      if (m.op === 'hello') return reply({ ok: true, result: { theme: { scheme: 'dark', accent: '#ff6600' } } });
      if (m.op === 'records.list') return reply({ ok: true, result: { records: items } });
      if (m.op === 'records.put') {
        items.push({ id: 'rec_' + next++, data: m.data });
        return reply({ ok: true, result: {} });
      }
      if (m.op === 'records.delete') {
        window.records[m.collection] = items.filter((r) => r.id !== m.recordId);
        return reply({ ok: true, result: {} });
      }
      reply({ ok: false, error: { code: 'forbidden', message: 'Porter refused: gmail_send is not allowed here.' } });
    });
  </script></body></html>`;
}

describe('The served page’s runtime, bundled for the browser, draws an app live through its frame (headless Chromium)', function () {
  needsChromium();
  let browser: Browser;
  let page: Page;
  let errors: string[];

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
    errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
  });
  afterEach(async () => {
    await page.close();
    expect(errors, 'the page runs without errors').to.deep.equal([]);
  });

  const framed = async (): Promise<FrameLocator> => {
    await page.setContent(framingPage(TODO));
    return page.frameLocator('iframe');
  };

  it('shows the app’s records from the frame, adds one through the form, clears the field and removes one', async () => {
    const app = await framed();
    await app.locator('.item:has-text("Buy bread")').waitFor();
    expect(await app.getByRole('heading', { level: 2 }).textContent()).to.equal('Things to do');

    await app.getByLabel('Add an item').fill('Call Sam');
    await app.getByRole('button', { name: 'Add' }).click();
    await app.locator('.item:has-text("Call Sam")').waitFor();
    expect(await app.getByLabel('Add an item').inputValue(), 'the field is cleared for the next one').to.equal('');

    await app.locator('.item:has-text("Buy bread")').getByRole('button', { name: 'Remove' }).click();
    await app.locator('.item:has-text("Buy bread")').waitFor({ state: 'detached' });
    const held = await page.evaluate(() => (window as unknown as { records: { items: Array<{ data: unknown }> } }).records.items);
    expect(held.map((r) => r.data)).to.deep.equal([{ text: 'Call Sam' }]);
  });

  it('follows the theme the frame answers with: its scheme and accent', async () => {
    const app = await framed();
    await app.locator('.item:has-text("Buy bread")').waitFor();
    const root = app.locator('html');
    expect(await root.getAttribute('data-scheme')).to.equal('dark');
    expect(await root.evaluate((html) => html.style.getPropertyValue('--accent'))).to.equal('#ff6600');
  });

  it('says beside the button why the frame refused its action', async () => {
    const app = await framed();
    await app.locator('.item:has-text("Buy bread")').waitFor();
    await app.getByRole('button', { name: 'Send the list' }).click();
    const alert = app.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal('Porter refused: gmail_send is not allowed here.');
  });

  it('draws fields with labels, a grid of cards, a table and a chart of the records, safe links only (tree-drawing, field-drawing, record-views)', async () => {
    await page.setContent(
      framingPage(KITCHEN).replace(
        "{ id: 'rec_1', data: { text: 'Buy bread' } }",
        "{ id: 'rec_1', data: { kind: 'Soup', spicy: false, heat: 2 } }, { id: 'rec_2', data: { kind: 'Main', spicy: true, heat: 4 } }",
      ),
    );
    const app = page.frameLocator('iframe');
    await app.locator('table tbody tr').nth(1).waitFor();
    expect(await app.locator('.grid').evaluate((grid) => (grid as HTMLElement).style.gridTemplateColumns)).to.equal(
      'repeat(3, minmax(0px, 1fr))',
    );
    expect(await app.locator('.card h3').textContent()).to.equal('New dish');
    expect(await app.getByLabel('Kind').locator('option').allTextContents()).to.deep.equal(['Soup', 'Main', 'Dessert']);
    expect(await app.getByLabel('Spicy').isChecked()).to.equal(true);
    expect(await app.getByLabel('Notes').evaluate((area) => area.tagName)).to.equal('TEXTAREA');
    expect(await app.getByLabel('When').getAttribute('type')).to.equal('date');
    expect(await app.locator('table caption').textContent()).to.equal('Dishes');
    expect(await app.locator('table th').allTextContents()).to.deep.equal(['kind', 'spicy']);
    expect(await app.locator('table tbody tr').allTextContents()).to.deep.equal(['Soup—', 'Main✓']);
    expect(await app.locator('.chart figcaption').textContent()).to.equal('Heat');
    expect(await app.locator('.bar').evaluateAll((bars) => bars.map((bar) => (bar as HTMLElement).title))).to.deep.equal([
      'Soup: 2',
      'Main: 4',
    ]);
    expect(
      await app.locator('a').evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')])),
    ).to.deep.equal([['Recipe', 'https://example.com/recipe', 'noopener noreferrer']]);
    expect(await app.locator('span:text-is("Click me")').count(), 'a javascript: link is plain text').to.equal(1);
    expect(await app.locator('img').count(), 'an SVG image is not shown').to.equal(0);
    expect(await app.locator('.image-placeholder').textContent()).to.equal('A dish');

    await app.getByLabel('Kind').selectOption('Dessert');
    await app.getByRole('button', { name: 'Save' }).click();
    await app.locator('table tbody tr').nth(2).waitFor();
    const held = await page.evaluate(() => (window as unknown as { records: { items: Array<{ data: unknown }> } }).records.items);
    expect(held[2]!.data).to.deep.include({ kind: 'Dessert', spicy: true });
  });

  it('opened on its own, draws the app, shows its lists empty and says to open it from Porter', async () => {
    await page.setContent(servedPage(TODO));
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal('This app runs inside Porter: open it from Porter’s Apps page.');
    expect(await page.locator('.empty').textContent()).to.equal('Nothing yet');
    expect(await page.locator('main').getAttribute('aria-busy')).to.equal(null);
  });
});
