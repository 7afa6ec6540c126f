import { BLOB_CONTENT_TYPE, BLOB_KEY } from '../../domain/apps/app-document.js';
import { InvalidInput, PayloadTooLarge } from '../../domain/errors.js';
import { AppDataUseCase, type BlobOf } from './app-data.js';

export const MAX_BLOB_BYTES = 2 * 1024 * 1024;

/** `PUT /apps/:id/blobs/:key`: only the app's owner writes its blobs. */
export class PutBlob extends AppDataUseCase {
  async execute({ principal, appId, key, contentType, bytes }: BlobOf<{ contentType: string; bytes: Uint8Array }>) {
    await this.book.ownedBy(principal.subject, appId);
    if (!BLOB_KEY.test(key)) throw new InvalidInput('A blob key is 1..128 letters, digits, ., _ or -, starting with a letter or digit');
    if (!BLOB_CONTENT_TYPE.test(contentType)) throw new InvalidInput('contentType must be a media type such as image/png');
    const type = contentType.toLowerCase();
    if (bytes.byteLength > MAX_BLOB_BYTES) throw new PayloadTooLarge(`A blob holds at most ${MAX_BLOB_BYTES} bytes`);
    const info = await this.data.blobs(appId).put(key, bytes, type);
    return { key: info.key, contentType: info.contentType, size: info.size };
  }
}
