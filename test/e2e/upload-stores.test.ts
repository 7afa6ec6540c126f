import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createOpenAI } from '@ai-sdk/openai';
import type { UploadStoreOption } from '../../composition/config/porter-options.js';
import { containerOf } from '../../composition/porter-container.js';
import { get, TOKENS } from '../../composition/tokens.js';
import { devHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { localS3 } from '../support/s3-server.js';
import { readTurn, type WireClient } from '../support/turn-client.js';
import { ELF, PNG, providerStandIn, type ProviderStandIn } from '../support/upload-samples.js';

/** Where a host keeps uploaded bytes instead of its database (`uploads.store`), and what is kept there. */
interface FileStore {
  readonly name: string;
  open(): Promise<{ readonly store: UploadStoreOption; keys(): Promise<string[]>; close(): Promise<void> }>;
}

const A_FOLDER: FileStore = {
  name: 'a folder on disk',
  async open() {
    const folder = mkdtempSync(join(tmpdir(), 'porter-upload-store-'));
    return {
      store: { kind: 'disk', folder },
      // Every entry counts, a temporary part too: a refused upload must leave none behind.
      keys: async () => readdirSync(folder),
      close: async () => rmSync(folder, { recursive: true, force: true }),
    };
  },
};

const AN_S3_BUCKET: FileStore = {
  name: 'an S3-compatible bucket (a local S3 server)',
  async open() {
    const s3 = await localS3();
    const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: s3.credentials });
    return {
      store: {
        kind: 's3',
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: s3.credentials,
        prefix: 'uploads/',
      },
      keys: async () => ((await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).map((o) => o.Key!),
      close: async () => {
        client.destroy();
        await s3.close();
      },
    };
  },
};

async function upload(client: WireClient, threadId: string, bytes: Uint8Array, type: string): Promise<Response> {
  return fetch(`${client.base}/threads/${threadId}/files?filename=f`, {
    method: 'POST',
    headers: { ...client.headers, 'content-type': type },
    body: new Blob([new Uint8Array(bytes)]),
  });
}

/**
 * The host's `uploads.store` option end to end: the wire's uploads land in the folder or bucket the
 * host named (not in its database), the model reads them from there, refusals leave nothing in it,
 * and a deleted thread takes its files out of it.
 */
for (const on of [A_FOLDER, AN_S3_BUCKET]) {
  describe(`Uploads kept in ${on.name} (uploads.store)`, function () {
    this.timeout(60_000);
    let opened: Awaited<ReturnType<FileStore['open']>>;
    let provider: ProviderStandIn;
    let host: DevHostFixture;
    let ada: WireClient;
    before(async () => {
      opened = await on.open();
      provider = await providerStandIn('openai');
      host = await devHost({
        porter: {
          model: createOpenAI({ baseURL: provider.url, apiKey: 'test' }).chat('gpt-4o'),
          uploads: { maxBytes: 64 * 1024, store: opened.store },
        },
      });
      ada = host.client.as('ada');
    });
    after(async () => {
      await host?.close();
      await provider?.close();
      await opened?.close();
    });

    it('keeps the file there, not in the database; the model and its owner read it back, anyone else gets 404', async () => {
      const thread = await ada.newThread();
      const answer = await upload(ada, thread, PNG, 'image/png');
      expect(answer.status, await answer.clone().text()).to.equal(201);
      const file = (await answer.json()) as { id: string; url: string };
      expect((await opened.keys()).join(' ')).to.contain(file.id);
      const store = get(containerOf(host.porter), TOKENS.Store);
      expect(await store.blobs(`porter-file:${file.id}`).list()).to.deep.equal([]);

      await readTurn(
        await ada.send('POST', `/threads/${thread}/turn`, {
          message: {
            role: 'user',
            parts: [
              { type: 'text', text: 'What is this?' },
              { type: 'file', mediaType: 'image/png', url: file.url },
            ],
          },
        }),
      );
      const user = provider.bodies.at(-1).messages.find((m: { role: string }) => m.role === 'user');
      expect(user.content).to.deep.include({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } });

      const back = await fetch(`${host.url}${file.url}`, { headers: ada.headers });
      expect(back.status).to.equal(200);
      expect(Buffer.from(await back.arrayBuffer()).equals(PNG)).to.equal(true);
      expect((await fetch(`${host.url}${file.url}`, { headers: host.client.as('bob').headers })).status).to.equal(404);
    });

    it('an oversize and a lying upload are refused (413, 415) and leave nothing there', async () => {
      const thread = await ada.newThread();
      const before = await opened.keys();
      const oversize = await upload(ada, thread, Buffer.concat([PNG, Buffer.alloc(256 * 1024, 7)]), 'image/png');
      expect(oversize.status).to.equal(413);
      expect((await upload(ada, thread, ELF, 'image/png')).status).to.equal(415);
      expect(await opened.keys()).to.deep.equal(before);
    });

    it('deleting a thread takes its files out of it', async () => {
      const thread = await ada.newThread();
      const ids: string[] = [];
      for (const bytes of [PNG, Buffer.from('some notes\n')]) {
        const answer = await upload(ada, thread, bytes, bytes === PNG ? 'image/png' : 'text/markdown');
        expect(answer.status).to.equal(201);
        ids.push(((await answer.json()) as { id: string }).id);
      }
      const kept = (await opened.keys()).join(' ');
      for (const id of ids) expect(kept).to.contain(id);
      expect((await ada.send('DELETE', `/threads/${thread}`)).status).to.equal(204);
      const left = (await opened.keys()).join(' ');
      for (const id of ids) expect(left).to.not.contain(id);
    });
  });
}
