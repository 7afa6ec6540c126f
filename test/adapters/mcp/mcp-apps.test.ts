import { expect } from 'chai';
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import { mcpAppPage } from '../../../adapters/apps/mcp-app-page.js';
import { declaresMcpApps, readAppResource, type DoorAppsOffer } from '../../../adapters/mcp/mcp-apps.js';
import type { DoorCaller } from '../../../domain/door/door-caller.js';
import type { DoorAppView } from '../../../ports/use-cases/door.js';

const HOSTILE = '</script><script>parent.postMessage("pwned","*")</script><!--';

const view = (): DoorAppView => ({
  app: {
    id: 'app_0123456789ab',
    title: `Notes ${HOSTILE}`,
    ui: 'tree',
    version: 'ver_1',
    updatedAt: '2026-11-29T00:00:00.000Z',
    root: 'root',
    nodes: { root: { type: 'text', props: { text: HOSTILE } } },
    data: { items: { collection: 'items' } },
    actions: {},
  },
  records: { items: [{ id: 'r1', data: { text: HOSTILE } }] },
});

const caller = { subject: 'ada', clientId: 'c', scope: 'mcp', evidence: 'e', principal: { subject: 'ada', kind: 'user' } } as DoorCaller;

describe('MCP Apps on the door', () => {
  it('offers apps only to a client declaring the extension with the HTML profile', () => {
    const ui = (settings: unknown) => ({ extensions: { 'io.modelcontextprotocol/ui': settings } }) as never;
    expect(declaresMcpApps(ui({ mimeTypes: ['text/html;profile=mcp-app'] }))).to.equal(true);
    expect(declaresMcpApps(ui({ mimeTypes: ['text/html'] }))).to.equal(false);
    expect(declaresMcpApps(ui({}))).to.equal(false);
    expect(declaresMcpApps(ui({ mimeTypes: 'text/html;profile=mcp-app' }))).to.equal(false);
    expect(declaresMcpApps({ extensions: {} })).to.equal(false);
    expect(declaresMcpApps({})).to.equal(false);
    expect(declaresMcpApps(undefined)).to.equal(false);
  });

  it('draws a page that no title, node or record can break out of: two scripts, the data inert', () => {
    const page = mcpAppPage(view());
    expect(page.match(/<script/gi)).to.have.length(2);
    expect(page.match(/<\/script/gi)).to.have.length(2);
    expect(page).not.to.contain('<!--');
    expect(page).to.contain('<title>Notes &#60;/script&#62;');
    const data = /<script type="application\/json" id="porter-app">([^<]*)<\/script>/.exec(page)?.[1];
    expect(JSON.parse(data!)).to.deep.equal(JSON.parse(JSON.stringify(view())));
    expect(JSON.parse(/id="porter-app">([^<]*)</.exec(mcpAppPage(null))![1]!)).to.equal(null);
  });

  it('reads nothing for a client without the extension, a URI naming no app, or an app the caller may not open', async () => {
    let asked = 0;
    const offer: DoorAppsOffer = {
      apps: {
        listApps: { execute: async () => [] },
        viewApp: {
          execute: async ({ appId }) => {
            asked++;
            return appId === 'app_0123456789ab' ? view() : null;
          },
        },
        openTool: 'porter_apps_open',
      },
      page: mcpAppPage,
    };
    for (const undeclared of ['ui://porter/apps/app_0123456789ab', 'ui://porter/app']) {
      const error = await readAppResource(offer, caller, undeclared, false).then(
        () => null,
        (refused: unknown) => refused,
      );
      expect(error, 'as before apps were offered').to.deep.include({ code: -32601, message: 'Method not found' });
    }
    const misses = [
      readAppResource(offer, caller, 'ui://porter/apps/app_someoneelses00', true),
      readAppResource(offer, caller, 'ui://porter/apps/app_0123456789ab/../x', true),
      readAppResource(offer, caller, 'ui://other/apps/app_0123456789ab', true),
    ];
    for (const miss of misses) {
      const error = await miss.then(
        () => null,
        (refused: unknown) => refused,
      );
      expect(error).to.be.instanceOf(ResourceNotFoundError);
    }
    expect(asked, 'only a well-formed app URI from a declaring client reaches the use case').to.equal(1);
    const found = await readAppResource(offer, caller, 'ui://porter/apps/app_0123456789ab', true);
    expect(found.contents[0]).to.include({ uri: 'ui://porter/apps/app_0123456789ab', mimeType: 'text/html;profile=mcp-app' });
  });
});
