import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver: an S3-compatible server in Node (path-style, signature-checked with its fixed key pair).
import S3rver from 's3rver';

export interface LocalS3 {
  readonly endpoint: string;
  readonly bucket: string;
  readonly credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

/** An S3-compatible server on a free local port with one empty bucket, its objects in a throwaway folder. */
export async function localS3(bucket = 'porter-uploads'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'porter-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
