import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FileBlobs } from '../../ports/file-blobs.js';
import { countedChunks } from './counted-chunks.js';
import { assertFileKey } from './file-key.js';
import { defined } from '../../domain/defined.js';

export interface S3FileBlobsOptions {
  readonly bucket: string;
  /** Prepended to every key (`uploads/`); default none. */
  readonly prefix?: string;
  /** An S3-compatible endpoint (MinIO, R2…); absent, AWS itself. */
  readonly endpoint?: string;
  readonly region?: string;
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers need. */
  readonly forcePathStyle?: boolean;
  /** Absent: the AWS SDK's default chain (environment, profile, instance role). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/**
 * Files in an S3-compatible bucket, through the AWS SDK: a write is streamed with lib-storage's
 * multipart `Upload` (5 MiB parts, one at a time, so memory stays at a part), and stopped and
 * aborted when the source passes the cap; nothing is left under the key. (Give the bucket a
 * lifecycle rule for incomplete multipart uploads: a process killed mid-upload cannot abort its own.)
 */
export class S3FileBlobs implements FileBlobs {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly options: S3FileBlobsOptions) {
    const config: S3ClientConfig = {
      region: options.region ?? 'us-east-1',
      ...defined({
        endpoint: options.endpoint || undefined,
        forcePathStyle: options.forcePathStyle,
        credentials: options.credentials ? { ...options.credentials } : undefined,
      }),
    };
    this.client = new S3Client(config);
  }

  async write(key: string, chunks: AsyncIterable<Uint8Array>, options: { maxBytes: number }): Promise<{ size: number }> {
    const seen = { size: 0 };
    // The source's own failure (the cap, a client gone) is what the caller is told, not whatever
    // aborting the multipart upload answered after it.
    const source: { failure?: unknown } = {};
    const body = (async function* () {
      try {
        yield* countedChunks(chunks, options.maxBytes, seen);
      } catch (error) {
        source.failure = error;
        throw error;
      }
    })();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: this.keyOf(key), Body: Readable.from(body) },
      queueSize: 1,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      await this.delete(key).catch(() => undefined);
      throw source.failure ?? error;
    }
    return { size: seen.size };
  }

  async read(key: string): Promise<AsyncIterable<Uint8Array> | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
      return (answer.Body as AsyncIterable<Uint8Array> | undefined) ?? null;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
  }

  private keyOf(key: string): string {
    return `${this.options.prefix ?? ''}${assertFileKey(key)}`;
  }
}
