import { expect } from 'chai';
import type { CallToolResult, ClientOptions as V2ClientOptions, Client as V2Client } from '@modelcontextprotocol/client';
import { connectSdk, connectSdkV2 } from '../support/door-client.js';
import { devHostPerTest } from '../support/dev-host-fixture.js';
import type { WireClient } from '../support/turn-client.js';

const MODERN = '2026-07-28';
const MCP_APP = 'text/html;profile=mcp-app';
/** The capabilities of a host that renders MCP Apps (SEP-1865). */
const RENDERS_APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MCP_APP] } } };
const MODERN_HOST: V2ClientOptions = { versionNegotiation: { mode: { pin: MODERN } }, capabilities: RENDERS_APPS };

/** Ada's reading list (a bound list of `items` and an Add form), with one record in it. */
async function readingList(ada: WireClient): Promise<{ id: string; uri: string }> {
  const app = (await ada.json('POST', '/apps', { prompt: 'reading list' })).body as { id: string };
  expect((await ada.json('PUT', `/apps/${app.id}/records/items`, { data: { text: 'Middlemarch' } })).status).to.equal(201);
  return { id: app.id, uri: `ui://porter/apps/${app.id}` };
}

/** The JSON-RPC error the client threw. */
async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error('expected a refusal');
}

describe('The MCP door offers generated apps as MCP Apps', function () {
  this.timeout(60_000);
  const start = devHostPerTest();

  it('lists and reads the person’s app as a ui:// view with its data, on 2026-07-28 and on a 2025-11-25 session', async () => {
    const { host, door } = await start();
    const app = await readingList(host.client.as('ada'));

    const { client } = await connectSdkV2(door, 'ada', MODERN_HOST);
    expect(client.getProtocolEra()).to.equal('modern');
    expect(client.getServerCapabilities()).to.deep.include({ resources: { listChanged: false } });
    expect(client.getServerCapabilities()?.extensions).to.have.property('io.modelcontextprotocol/ui');
    const { resources } = await client.listResources();
    expect(resources).to.deep.include.members([
      {
        uri: app.uri,
        name: 'Reading list',
        title: 'Reading list',
        description: resources.find((r) => r.uri === app.uri)?.description,
        mimeType: MCP_APP,
        _meta: { ui: { prefersBorder: true, csp: { connectDomains: [], resourceDomains: [] } } },
      },
    ]);
    const read = await client.readResource({ uri: app.uri });
    expect(read.contents).to.have.length(1);
    const view = read.contents[0] as { uri: string; mimeType: string; text: string };
    expect(view).to.include({ uri: app.uri, mimeType: MCP_APP });
    expect(view.text).to.match(/^<!doctype html>/);
    expect(view.text).to.contain('<title>Reading list</title>');
    expect(view.text, 'the app’s current records are inside').to.contain('Middlemarch');
    expect(view.text).to.contain('ui/initialize');
    expect(view.text.match(/<\/script/gi), 'nothing in the page closes a script early').to.have.length(2);
    await client.close();

    const legacy = await connectSdk(door, 'ada', undefined, { capabilities: RENDERS_APPS });
    expect(legacy.transport.sessionId).to.be.a('string');
    expect((await legacy.client.listResources()).resources.map((r) => r.uri)).to.include(app.uri);
    const again = await legacy.client.readResource({ uri: app.uri });
    expect(again.contents[0]).to.include({ mimeType: MCP_APP });
    await legacy.client.close();
  });

  it('never lists or reads another person’s app: it is not found, like one that does not exist', async () => {
    const { host, door } = await start();
    const app = await readingList(host.client.as('ada'));
    const { client } = await connectSdkV2(door, 'bea', MODERN_HOST);
    expect((await client.listResources()).resources.map((r) => r.uri)).not.to.include(app.uri);
    const theirs = await refusal(client.readResource({ uri: app.uri }));
    const none = await refusal(client.readResource({ uri: 'ui://porter/apps/app_doesnotexist00' }));
    // Resource not found, as the 2026-07-28 specification has every revision answer it: -32602 with data {uri}.
    expect(theirs).to.deep.include({ code: -32602, data: { uri: app.uri } });
    expect(none).to.deep.include({ code: -32602, data: { uri: 'ui://porter/apps/app_doesnotexist00' } });
    expect(theirs.message.replace(app.uri, 'X')).to.equal(none.message.replace('ui://porter/apps/app_doesnotexist00', 'X'));
    const opened = (await client.callTool({ name: 'porter_apps_open', arguments: { appId: app.id } })) as CallToolResult;
    expect(opened.isError).to.equal(true);
    expect(opened.structuredContent ?? {}).not.to.have.property('appView');
    await client.close();
  });

  it('links porter_apps_open to the app view, and its result hands the host the app with its current data', async () => {
    const { host, door } = await start();
    const app = await readingList(host.client.as('ada'));
    const { client } = await connectSdkV2(door, 'ada', MODERN_HOST);
    const open = (await client.listTools()).tools.find((tool) => tool.name === 'porter_apps_open')!;
    expect(open._meta).to.deep.equal({
      ui: { resourceUri: 'ui://porter/app', visibility: ['model', 'app'] },
      'ui/resourceUri': 'ui://porter/app',
    });
    const template = await client.readResource({ uri: 'ui://porter/app' });
    expect(template.contents[0]).to.include({ uri: 'ui://porter/app', mimeType: MCP_APP });

    const result = (await client.callTool({ name: 'porter_apps_open', arguments: { appId: app.id } })) as CallToolResult;
    expect(result.isError ?? false, JSON.stringify(result.content)).to.equal(false);
    expect(result.content).to.deep.include({
      type: 'resource_link',
      uri: app.uri,
      name: 'Reading list',
      mimeType: MCP_APP,
      description: 'The app "Reading list"',
    });
    const shown = (result.structuredContent as { appView: { app: Record<string, unknown>; records: Record<string, unknown[]> } }).appView;
    expect(shown.app).to.include({ id: app.id, title: 'Reading list', ui: 'tree', root: 'root' });
    expect(shown.app).not.to.have.property('server');
    expect(shown.records.items).to.have.length(1);
    expect(shown.records.items![0]).to.deep.include({ data: { text: 'Middlemarch' } });
    await client.close();
  });

  it('runs the app’s callbacks through the door’s tools/call under the guard: a write waits for the person', async () => {
    const { host, door } = await start();
    const ada = host.client.as('ada');
    const app = await readingList(ada);
    const { client } = await connectSdkV2(door, 'ada', MODERN_HOST);
    // What the view sends the host when the person presses Add, which the host proxies to the door.
    const put = (await client.callTool({
      name: 'porter_apps_data_put',
      arguments: { appId: app.id, collection: 'items', data: { text: 'Persuasion' } },
    })) as CallToolResult;
    expect(put.isError).to.equal(true);
    expect(put.structuredContent).to.deep.include({ status: 'approval-required', risk: 'write' });
    const stored = (await ada.json('GET', `/apps/${app.id}/records/items`)).body as { records: Array<{ data: unknown }> };
    expect(stored.records.map((r) => r.data)).to.deep.equal([{ text: 'Middlemarch' }]);
    const pending = (await ada.json('GET', '/approvals')).body as { approvals: Array<{ id: string; request?: { tool: string } }> };
    const asked = pending.approvals.find((a) => a.id === (put.structuredContent as { approvalId: string }).approvalId);
    expect(asked?.request, 'the person is asked, as for any door call').to.deep.include({
      tool: 'porter_apps_data_put',
      venue: 'mcp',
      input: { appId: app.id, collection: 'items', data: { text: 'Persuasion' } },
    });
    await client.close();
  });

  it('shows nothing new to a client that does not declare the extension', async () => {
    const { host, door } = await start();
    const app = await readingList(host.client.as('ada'));
    for (const client of [
      (await connectSdkV2(door, 'ada', { versionNegotiation: { mode: { pin: MODERN } } })).client as V2Client,
      (await connectSdk(door, 'ada')).client,
    ]) {
      const capabilities = client.getServerCapabilities()!;
      expect(capabilities).not.to.have.property('resources');
      // Other extensions may be offered (Tasks on 2026-07-28); the MCP Apps one is not.
      expect(capabilities.extensions ?? {}).not.to.have.property('io.modelcontextprotocol/ui');
      // As before apps were offered: the door serves no resources methods (the v2 client does not even ask).
      const listed = await client.listResources().then(
        ({ resources }) => resources,
        (error: { code: number }) => error.code,
      );
      expect([[], -32601]).to.deep.include(listed);
      const read = await refusal(client.readResource({ uri: app.uri }));
      expect(read.code).to.equal(-32601);
      expect(read.message).to.match(/Method not found$/);
      const open = (await client.listTools()).tools.find((tool) => tool.name === 'porter_apps_open')!;
      expect(open).not.to.have.property('_meta');
      const result = (await client.callTool({ name: 'porter_apps_open', arguments: { appId: app.id } })) as CallToolResult;
      expect(result.structuredContent ?? {}).not.to.have.property('appView');
      expect(result.content.map((part) => part.type)).to.deep.equal(['text']);
      await client.close();
    }
  });
});
