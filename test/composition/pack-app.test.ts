import { expect } from 'chai';
import { packApp } from '../../composition/index.js';
import { tinyDocument } from '../support/apps-documents.js';
import { devHost } from '../support/dev-host-fixture.js';

describe('packApp: an app file a host makes for POST /apps/import', function () {
  this.timeout(30_000);

  it('makes a file the wire imports as it was: the document and its server files', async () => {
    const document = {
      ...tinyDocument(),
      title: 'Packed',
      server: { files: { 'server.js': 'require("node:http");', 'lib/util.js': '1' } },
    };
    const host = await devHost();
    try {
      const ada = host.client.as('ada');
      const imported = await fetch(`${ada.base}/apps/import`, {
        method: 'POST',
        headers: { ...ada.headers, 'content-type': 'application/vnd.porter.app' },
        body: Buffer.from(packApp(document)),
      });
      expect(imported.status).to.equal(201);
      const app = (await imported.json()) as { id: string };
      const stored = (await ada.json('GET', `/apps/${app.id}`)).body as { document: typeof document };
      expect(stored.document.title).to.equal('Packed');
      expect(stored.document.server?.files).to.deep.equal(document.server.files);
    } finally {
      await host.close();
    }
  });

  it('refuses a document the import would refuse, saying what is wrong', () => {
    const broken = { ...tinyDocument(), root: 'nowhere' };
    expect(() => packApp(broken)).to.throw(TypeError, /root/);
    expect(() => packApp({ ...tinyDocument(), server: { files: { '../escape.js': 'x' } } })).to.throw(TypeError, /server/);
  });
});
