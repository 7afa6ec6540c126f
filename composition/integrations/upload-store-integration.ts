import type { PorterConfig } from '../config/config-schema.js';
import type { FileBlobs } from '../../ports/file-blobs.js';
import { DiskFileBlobs } from '../../adapters/files/disk-file-blobs.js';
import { importOptional } from './optional-package.js';

/**
 * Where uploaded files' bytes go (`uploads.store`), built at boot: a folder, or an S3-compatible
 * bucket (the AWS SDK loaded only then). Null for the default, the store's own database, which the
 * files module builds over the Store.
 */
export async function loadUploadStore(config: PorterConfig): Promise<FileBlobs | null> {
  const store = config.uploads.store;
  if (store === 'database') return null;
  if (store.kind === 'disk') return new DiskFileBlobs(store.folder);
  const { S3FileBlobs } = await importOptional(
    '@aws-sdk/client-s3',
    'uploads.store',
    () => import('../../adapters/files/s3-file-blobs.js'),
  );
  const { kind: _kind, ...options } = store;
  return new S3FileBlobs(options);
}
