import { expect } from 'chai';
import { devHost } from '../support/dev-host-fixture.js';
import { tinyDocument } from '../support/apps-documents.js';
import type { WireClient } from '../support/turn-client.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import { ZipAppArchive } from '../../adapters/apps/zip-app-archive.js';

type Part = Record<string, any>;

describe('Imported apps through the development host: shared only when the host lets the importer share', function () {
  this.timeout(30_000);
  let host: DevHost & { client: WireClient };

  before(async () => {
    host = await devHost({
      env: { PORTER_WEBHOOK_DEMO_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      porter: { canShareApps: (principal) => principal.subject === 'carol' },
    });
  });

  after(async () => {
    await host.close();
  });

  const sharedFile = () => new Uint8Array(new ZipAppArchive().pack({ ...tinyDocument(), title: 'Team list', scope: 'shared' }));

  /** POST /apps/import as the given headers; answers the status, the body and any anonymous-session cookie. */
  async function importAs(headers: Record<string, string>): Promise<{ status: number; body: Part; cookie: string | null }> {
    const response = await fetch(`${host.client.base}/apps/import`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/vnd.porter.app' },
      body: sharedFile(),
    });
    return { status: response.status, body: (await response.json()) as Part, cookie: response.headers.get('set-cookie') };
  }

  it("stores an ordinary person's shared app owner-scoped: another person gets 404", async () => {
    const ada = host.client.as('ada');
    const imported = await importAs(ada.headers);
    expect(imported.status).to.equal(201);
    expect(imported.body.scope).to.equal('owner');
    expect((await host.client.as('bob').json('GET', `/apps/${imported.body.id}`)).status).to.equal(404);
    expect((await ada.json('GET', `/apps/${imported.body.id}`)).body.scope).to.equal('owner');
  });

  it("stores an anonymous visitor's shared app owner-scoped: a signed-in person gets 404", async () => {
    const imported = await importAs({});
    expect(imported.status).to.equal(201);
    expect(imported.cookie, 'the import ran in a fresh anonymous session').to.be.a('string');
    expect(imported.body.scope).to.equal('owner');
    expect((await host.client.as('bob').json('GET', `/apps/${imported.body.id}`)).status).to.equal(404);
  });

  it("shares a permitted importer's app with people signed in, not with anonymous visitors", async () => {
    const imported = await importAs(host.client.as('carol').headers);
    expect(imported.status).to.equal(201);
    expect(imported.body.scope).to.equal('shared');
    const seen = await host.client.as('bob').json('GET', `/apps/${imported.body.id}`);
    expect(seen.status).to.equal(200);
    expect(seen.body.title).to.equal('Team list');
    expect((await host.client.json('GET', `/apps/${imported.body.id}`)).status).to.equal(404);
  });
});
