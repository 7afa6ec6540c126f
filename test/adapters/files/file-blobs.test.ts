import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DomainError } from '../../../domain/errors.js';
import { bytesOf, type FileBlobs } from '../../../ports/file-blobs.js';
import type { Store } from '../../../ports/store.js';
import { DatabaseFileBlobs, DATABASE_CHUNK_BYTES } from '../../../adapters/files/database-file-blobs.js';
import { DiskFileBlobs } from '../../../adapters/files/disk-file-blobs.js';
import { S3FileBlobs } from '../../../adapters/files/s3-file-blobs.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';
import { localS3, type LocalS3 } from '../../support/s3-server.js';

/** `size` bytes of a repeating pattern, in chunks of `chunk` (a request body arrives in such pieces). */
async function* patterned(size: number, chunk = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < size; at += chunk) {
    const piece = new Uint8Array(Math.min(chunk, size - at));
    for (let i = 0; i < piece.length; i++) piece[i] = (at + i) % 251;
    yield piece;
  }
}

function expected(size: number): Uint8Array {
  const all = new Uint8Array(size);
  for (let i = 0; i < size; i++) all[i] = i % 251;
  return all;
}

async function* failingAfter(bytes: number): AsyncGenerator<Uint8Array> {
  yield* patterned(bytes);
  throw new Error('the client went away');
}

interface Subject {
  readonly blobs: FileBlobs;
  /** What is stored for any file, however the adapter keeps it (rows, files, objects). */
  readonly leftovers: () => Promise<number>;
  readonly close: () => Promise<void>;
}

/** One behaviour, every adapter: what a file blob store must do. */
function describeFileBlobs(name: string, open: () => Promise<Subject | null>): void {
  describe(`File blobs: ${name}`, function () {
    this.timeout(60_000);
    let subject: Subject;
    before(async function () {
      const opened = await open();
      if (!opened) return this.skip();
      subject = opened;
    });
    after(async () => subject?.close());

    it('streams a file in and back out, byte for byte, across several chunks', async () => {
      const size = DATABASE_CHUNK_BYTES * 2 + 12_345;
      const written = await subject.blobs.write('fil_01ROUNDTRIP0000000000', patterned(size), { maxBytes: size });
      expect(written.size).to.equal(size);
      const read = await subject.blobs.read('fil_01ROUNDTRIP0000000000');
      expect(read).to.not.equal(null);
      expect(Buffer.from(await bytesOf(read!)).equals(Buffer.from(expected(size)))).to.equal(true);
      await subject.blobs.delete('fil_01ROUNDTRIP0000000000');
      expect(await subject.blobs.read('fil_01ROUNDTRIP0000000000')).to.equal(null);
      expect(await subject.leftovers()).to.equal(0);
    });

    it('refuses a file one byte over the cap while reading it (413) and stores nothing', async () => {
      const cap = DATABASE_CHUNK_BYTES + 100;
      let pulled = 0;
      async function* counted() {
        for await (const chunk of patterned(cap * 4)) {
          pulled += chunk.byteLength;
          yield chunk;
        }
      }
      const refusal = await subject.blobs.write('fil_01OVERSIZE00000000000', counted(), { maxBytes: cap }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).to.be.instanceOf(DomainError);
      expect((refusal as DomainError).code).to.equal('payload-too-large');
      // Reading stopped at the cap, not at the end of the body.
      expect(pulled).to.be.below(cap + 64 * 1024 + 1);
      expect(await subject.blobs.read('fil_01OVERSIZE00000000000')).to.equal(null);
      expect(await subject.leftovers()).to.equal(0);
    });

    it('leaves nothing behind when the source fails half-way', async () => {
      const failure = await subject.blobs
        .write('fil_01BROKEN0000000000000', failingAfter(DATABASE_CHUNK_BYTES + 1), { maxBytes: 10 * DATABASE_CHUNK_BYTES })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(String(failure)).to.contain('the client went away');
      expect(await subject.blobs.read('fil_01BROKEN0000000000000')).to.equal(null);
      expect(await subject.leftovers()).to.equal(0);
    });

    it('a file larger than one multipart part (6 MiB) goes in and out whole; past a 6 MiB cap nothing stays', async () => {
      const size = 6 * 1024 * 1024;
      await subject.blobs.write('fil_01ROUNDTRIP0000000000', patterned(size), { maxBytes: size });
      const read = await bytesOf((await subject.blobs.read('fil_01ROUNDTRIP0000000000'))!);
      expect(Buffer.from(read).equals(Buffer.from(expected(size)))).to.equal(true);
      await subject.blobs.delete('fil_01ROUNDTRIP0000000000');
      const refusal = await subject.blobs.write('fil_01OVERSIZE00000000000', patterned(size + 1), { maxBytes: size }).then(
        () => null,
        (error: unknown) => error,
      );
      expect((refusal as DomainError).code, String(refusal)).to.equal('payload-too-large');
      expect(await subject.leftovers()).to.equal(0);
    });

    it('takes only file ids as keys: a path or another name is refused before anything is touched', async () => {
      for (const key of ['../../etc/passwd', 'fil_../../x', '/tmp/x', 'thr_01ABCDEFGHJKMNPQRSTVWX']) {
        const refused = await subject.blobs.write(key, patterned(10), { maxBytes: 100 }).then(
          () => null,
          (error: unknown) => error,
        );
        expect(String(refused), key).to.contain('not a file key');
      }
    });
  });
}

async function databaseSubject(store: Store, close: () => Promise<void>): Promise<Subject> {
  return {
    blobs: new DatabaseFileBlobs(store),
    leftovers: async () => {
      let count = 0;
      for (const key of ['fil_01ROUNDTRIP0000000000', 'fil_01OVERSIZE00000000000', 'fil_01BROKEN0000000000000'])
        count += (await store.blobs(`porter-file:${key}`).list()).length;
      return count;
    },
    close,
  };
}

describeFileBlobs('database, on the memory store', async () => {
  const store = new MemoryStore({ clock: new ManualClock() });
  return databaseSubject(store, () => store.close());
});

describeFileBlobs('database, on SQLite', async () => {
  const store = await MikroOrmStore.open({ target: { engine: 'sqlite', file: ':memory:' }, clock: new ManualClock() });
  return databaseSubject(store, () => store.close());
});

describeFileBlobs('database, on PostgreSQL', async () => {
  const server = await postgresServerUrl();
  if (!server) return null;
  const database: TestDatabase = await createTestDatabase(server);
  const store = await MikroOrmStore.open({ target: { engine: 'postgresql', url: database.url }, clock: new ManualClock() });
  return databaseSubject(store, async () => {
    await store.close();
    await database.drop();
  });
});

describeFileBlobs('a folder on disk', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'porter-files-'));
  return {
    blobs: new DiskFileBlobs(folder),
    // Temporary files count too: a refused write must not leave its part behind.
    leftovers: async () => readdirSync(folder).length,
    close: async () => rmSync(folder, { recursive: true, force: true }),
  };
});

describeFileBlobs('S3, against a local S3-compatible server', async () => {
  const s3: LocalS3 = await localS3();
  const options = { bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: true, credentials: s3.credentials, prefix: 'uploads/' };
  const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: s3.credentials });
  return {
    blobs: new S3FileBlobs(options),
    leftovers: async () => (await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).KeyCount ?? 0,
    close: async () => {
      client.destroy();
      await s3.close();
    },
  };
});
