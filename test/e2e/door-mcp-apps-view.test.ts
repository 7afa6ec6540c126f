import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { CallToolResult, Client, ClientOptions } from '@modelcontextprotocol/client';
import { connectSdkV2 } from '../support/door-client.js';
import { devHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { launchChromium, needsChromium } from '../support/browser.js';
import { McpAppsHost } from '../support/mcp-apps-host.js';
import type { WireClient } from '../support/turn-client.js';

const MCP_APP = 'text/html;profile=mcp-app';
const RENDERS_APPS: ClientOptions = {
  versionNegotiation: { mode: { pin: '2026-07-28' } },
  capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MCP_APP] } } },
};

describe('A generated app rendered by an MCP Apps host, calling back through the door', function () {
  this.timeout(90_000);
  needsChromium();
  let host: DevHostFixture;
  let browser: Browser;
  let page: Page;
  let ada: WireClient;
  let client: Client;
  let errors: string[];

  before(async () => {
    host = await devHost();
    browser = await launchChromium();
    ada = host.client.as('ada');
    ({ client } = await connectSdkV2(new URL(`${host.url}${host.porter.mount}/mcp`), 'ada', RENDERS_APPS));
  });
  after(async () => {
    await client?.close();
    await browser?.close();
    await host?.close();
  });
  beforeEach(async () => {
    page = await (await browser.newContext()).newPage();
    errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  });
  afterEach(async () => {
    await page.context().close();
    expect(errors, 'the view ran without errors (and without breaking its CSP)').to.deep.equal([]);
  });

  async function readingList(): Promise<string> {
    const app = (await ada.json('POST', '/apps', { prompt: 'reading list' })).body as { id: string };
    expect((await ada.json('PUT', `/apps/${app.id}/records/items`, { data: { text: 'Middlemarch' } })).status).to.equal(201);
    return app.id;
  }

  const text = (page: McpAppsHost, selector: string) => page.view.locator(selector).allTextContents();

  it("draws the app's own view with its data, and its Add waits for the person, then runs once they approve", async () => {
    const appId = await readingList();
    const read = await client.readResource({ uri: `ui://porter/apps/${appId}` });
    const shown = await McpAppsHost.render(page, client, (read.contents[0] as { text: string }).text, 'dark');

    await shown.view.locator('h2', { hasText: 'Reading list' }).waitFor();
    await shown.view.locator('li.item', { hasText: 'Middlemarch' }).waitFor();
    expect(await shown.view.locator('html').getAttribute('data-scheme'), "the host's theme").to.equal('dark');
    expect(shown.calls, 'the records came inside the view').to.deep.equal([]);

    await shown.view.getByPlaceholder('Add an item').fill('Persuasion');
    await shown.view.getByRole('button', { name: 'Add' }).click();
    const waiting = shown.view.locator('.outcome.error', { hasText: 'Waiting for your approval' });
    await waiting.waitFor();
    expect(shown.calls).to.deep.equal(['porter_apps_data_put']);
    const approvals = (await ada.json('GET', '/approvals')).body as {
      approvals: Array<{ id: string; state: string; request?: { tool: string; venue: string } }>;
    };
    const asked = approvals.approvals.filter((a) => a.state === 'pending' && a.request?.tool === 'porter_apps_data_put');
    expect(asked, 'one approval, asked through the door').to.have.length(1);
    expect(asked[0]!.request).to.deep.include({ venue: 'mcp' });
    expect(((await ada.json('GET', `/apps/${appId}/records/items`)).body as { records: unknown[] }).records).to.have.length(1);

    expect((await ada.json('POST', `/approvals/${asked[0]!.id}/decide`, { approve: true })).status).to.equal(200);
    // The field kept what was typed (a refused write clears nothing): pressing Add again retries the approved call.
    await shown.view.getByRole('button', { name: 'Add' }).click();
    await shown.view.locator('li.item', { hasText: 'Persuasion' }).waitFor();
    expect(shown.calls).to.deep.equal(['porter_apps_data_put', 'porter_apps_data_put', 'porter_apps_data_list']);
    const stored = (await ada.json('GET', `/apps/${appId}/records/items`)).body as { records: Array<{ data: { text: string } }> };
    expect(stored.records.map((r) => r.data.text).sort(), 'the approved write ran once').to.deep.equal(['Middlemarch', 'Persuasion']);
    expect(await text(shown, 'li.item span')).to.have.members(['Middlemarch', 'Persuasion']);
    expect(await shown.notices()).to.include('ui/notifications/initialized');
  });

  it("runs the app's tool actions as those tools through the door: a read at once, a write waits for the person", async () => {
    const appId = await readingList();
    for (const instruction of ['tool notes_list', 'tool notes_add'])
      expect((await ada.json('POST', `/apps/${appId}/edit`, { instruction })).status).to.equal(200);
    const read = await client.readResource({ uri: `ui://porter/apps/${appId}` });
    const shown = await McpAppsHost.render(page, client, (read.contents[0] as { text: string }).text);

    await shown.view.getByRole('button', { name: 'Notes list' }).click();
    await shown.view.locator('.outcome.info', { hasText: 'Done:' }).waitFor();
    await shown.view.getByLabel('Text').fill('Emma');
    await shown.view.getByRole('button', { name: 'Notes add' }).click();
    await shown.view.locator('.outcome.info', { hasText: 'Waiting for your approval: Add the note “Emma”' }).waitFor();
    expect(shown.calls).to.deep.equal(['notes_list', 'notes_add']);
    const approvals = (await ada.json('GET', '/approvals')).body as {
      approvals: Array<{ state: string; request?: Record<string, unknown> }>;
    };
    const asked = approvals.approvals.find((a) => a.state === 'pending' && a.request?.tool === 'notes_add');
    expect(asked?.request, 'asked as any door call is').to.deep.include({ venue: 'mcp', input: { text: 'Emma' } });
  });

  it('draws the app porter_apps_open hands the linked template, from the tool result alone', async () => {
    const appId = await readingList();
    const tools = (await client.listTools()).tools;
    const template = tools.find((tool) => tool.name === 'porter_apps_open')!._meta as { ui: { resourceUri: string } };
    const read = await client.readResource({ uri: template.ui.resourceUri });
    const shown = await McpAppsHost.render(page, client, (read.contents[0] as { text: string }).text);
    const opened = (await client.callTool({ name: 'porter_apps_open', arguments: { appId } })) as CallToolResult;
    await shown.toolResult(opened);
    await shown.view.locator('h2', { hasText: 'Reading list' }).waitFor();
    await shown.view.locator('li.item', { hasText: 'Middlemarch' }).waitFor();
    expect(shown.calls).to.deep.equal([]);
  });
});
