import { expect } from 'chai';
import Koa from 'koa';
import { z } from 'zod';
import type { Browser } from 'playwright-core';
import { createPorter, defineTool, type Porter } from '../../composition/index.js';
import { serveChrome } from '../../composition/chrome.js';
import { checkedPages, chromeSuite, connectFromConnectionsPage, launchChromium, needsChromium } from '../support/browser.js';
import { serve, type RunningServer } from '../support/http-server.js';

const ordersList = defineTool({
  name: 'orders_list',
  description: 'List the orders placed this week.',
  input: z.strictObject({}),
  risk: 'read',
  execute: async () => ({ orders: [] }),
});
const refundIssue = defineTool({
  name: 'refund_issue',
  description: 'Refund an order.',
  input: z.strictObject({ order: z.string() }),
  risk: 'write',
  execute: async ({ order }) => ({ refunded: order }),
});

describe('The chrome mounted in a host of its own: its name, mark, colour and tools (headless Chromium)', function () {
  needsChromium();
  this.timeout(120_000);
  let porter: Porter;
  let server: RunningServer;
  let browser: Browser;
  const pages = checkedPages();

  before(async () => {
    porter = await createPorter(
      {
        principal: (req) => ({ subject: `acme:${String(req.headers['x-user'] ?? 'ann')}`, kind: 'user' }),
        tools: [ordersList, refundIssue],
        logger: 'silent',
      },
      { PORTER_DATABASE_URL: 'sqlite::memory:', PORTER_SECRET: 'a-host-secret-for-the-chrome-tests-0123456789' },
    );
    const app = new Koa();
    app.use(porter.koa);
    app.use(
      await serveChrome({ wire: porter.mount, path: '/assistant', title: 'Acme Helper', accentColor: '#0f766e', logoUrl: '/logo.svg' }),
    );
    app.use((ctx) => {
      if (ctx.path !== '/logo.svg') return;
      ctx.type = 'image/svg+xml';
      ctx.body = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#0f766e"/></svg>';
    });
    server = await serve(app.callback());
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await porter?.close();
  });

  it("greets with the host's name and mark, in its colour, and suggests the host's own tools: never the demo tools", async () => {
    const { page, screenshot } = await pages.open(browser, `${server.url}/assistant/`);
    await page.waitForSelector('.suggestion');
    expect(await page.title()).to.equal('Acme Helper');
    expect(await page.locator('.brand').textContent()).to.equal('Acme Helper');
    expect(await page.locator('.brand img.logo').getAttribute('src')).to.equal('/logo.svg');
    expect(await page.getByLabel('Message', { exact: true }).getAttribute('placeholder')).to.equal('Message Acme Helper');
    const accent = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim());
    expect(accent).to.equal('#0f766e');
    const suggestions = await page.locator('.suggestion').allTextContents();
    expect(suggestions.join(' | ')).to.contain('Orders list').and.contain('List the orders placed this week.');
    expect(suggestions.join(' | ')).to.not.match(/notes|\/call|\/app/);
    expect(suggestions[0], 'reading tools first, after the greeting').to.contain('Say hello');
    await screenshot('chrome-host-home');

    await page.goto(`${server.url}/assistant/#/apps`);
    const lede = await page.locator('.page-lede').textContent();
    expect(lede).to.not.contain('/app');
    expect(lede).to.contain('Acme Helper');
    // No door, no demo broker: neither is offered.
    expect(await page.locator('a:has-text("Connect an agent")').count()).to.equal(0);
  });

  it('refuses options it could not show safely, naming the option', async () => {
    const cases: Array<[object, string]> = [
      [{ accentColor: 'red; background: url(x)' }, 'accentColor'],
      [{ logoUrl: 'javascript:alert(1)' }, 'logoUrl'],
      [{ logoUrl: '//evil.example/logo.png' }, 'logoUrl'],
      [{ title: '' }, 'title'],
      [{ suggestions: Array.from({ length: 9 }, () => ({ label: 'x', text: 'y' })) }, 'suggestions'],
      [{ suggestions: [{ label: '', text: 'y' }] }, 'suggestions'],
    ];
    for (const [options, option] of cases) {
      let error: unknown;
      try {
        await serveChrome({ wire: '/api/porter', ...options });
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(options)).to.be.instanceOf(TypeError);
      expect((error as Error).message).to.contain(option);
    }
  });
});

describe('The development host’s chrome: the demo connection broker end to end, and the MCP door linked (headless Chromium)', function () {
  this.timeout(120_000);
  const chrome = chromeSuite(() => ({ demoBroker: true }));

  it('connects the demo calendar through the broker’s consent page, and a tool then reads it through the connection', async () => {
    const session = await chrome.open({ user: 'dan' });
    const { page, screenshot } = session;
    const consent = await connectFromConnectionsPage(session, chrome.host.url, 'demo-calendar');
    expect(await consent.textContent('h1')).to.equal('Allow Porter to read your demo calendar?');
    // Back from the broker, the sign-in window tells this page and closes itself.
    const closed = consent.waitForEvent('close');
    await consent.getByRole('button', { name: 'Allow' }).click();
    await closed;
    await page.waitForSelector('[data-connection-status="active"]');
    await page.locator('.card:has-text("Demo calendar") .badge:has-text("Connected")').waitFor();
    await screenshot('chrome-demo-connection');

    const dan = chrome.host.client.as('dan');
    expect((await dan.json('GET', '/status')).body.blocks.connections).to.equal('cloud');
    const turn = await dan.say(await dan.newThread(), '/call calendar_events {}');
    const part = turn.message.parts.find((p) => p.type === 'tool-calendar_events') as { state: string; output: unknown };
    expect(part.state).to.equal('output-available');
    expect(JSON.stringify(part.output)).to.contain('Stand-up');
  });

  it('links the MCP connect page from the navigation when the door is open', async () => {
    const { page } = await chrome.open({ user: 'eve' });
    const link = page.locator('a:has-text("Connect an agent")');
    await link.waitFor();
    const href = await link.getAttribute('href');
    expect(href).to.equal('/api/porter/mcp/connect');
    const connectPage = await fetch(`${chrome.host.url}${href}`);
    expect(connectPage.status).to.equal(200);
    expect(await connectPage.text()).to.contain('Claude');
  });
});
