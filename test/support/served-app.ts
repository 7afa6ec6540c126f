import { expect } from 'chai';
import { ZipAppArchive } from '../../adapters/apps/zip-app-archive.js';
import { tinyDocument } from './apps-documents.js';
import type { WireClient } from './turn-client.js';

/** A small app whose own server is `serverJs`, imported and graduated by `person`: its id. */
export async function servedApp(person: WireClient, serverJs: string): Promise<string> {
  const imported = await fetch(`${person.base}/apps/import`, {
    method: 'POST',
    headers: { ...person.headers, 'content-type': 'application/vnd.porter.app' },
    body: Buffer.from(new ZipAppArchive().pack({ ...tinyDocument(), server: { files: { 'server.js': serverJs } } })),
  });
  const app = (await imported.json()) as { id: string };
  const graduated = await person.json('POST', `/apps/${app.id}/graduate`, {});
  expect(graduated.status, JSON.stringify(graduated.body)).to.equal(200);
  return app.id;
}
