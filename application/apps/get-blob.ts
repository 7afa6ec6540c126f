import { NotFound } from '../../domain/errors.js';
import type { BlobContent } from '../../ports/use-cases/apps.js';
import { AppDataUseCase, type BlobOf } from './app-data.js';

/** `GET /apps/:id/blobs/:key`: an app's blobs are read by whoever may see the app, written only by its owner. */
export class GetBlob extends AppDataUseCase {
  async execute({ principal, appId, key }: BlobOf): Promise<BlobContent> {
    await this.book.visibleTo(principal, appId);
    const blob = await this.data.blobs(appId).get(key);
    if (!blob) throw new NotFound('Blob');
    return { key: blob.key, contentType: blob.contentType, bytes: blob.bytes };
  }
}
