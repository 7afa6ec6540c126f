import { NotFound } from '../../domain/errors.js';
import { AppDataUseCase, type BlobOf } from './app-data.js';

/** `DELETE /apps/:id/blobs/:key`: only the app's owner deletes its blobs. */
export class DeleteBlob extends AppDataUseCase {
  async execute({ principal, appId, key }: BlobOf): Promise<void> {
    await this.book.ownedBy(principal.subject, appId);
    if (!(await this.data.blobs(appId).delete(key))) throw new NotFound('Blob');
  }
}
