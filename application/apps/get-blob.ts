import { NotFound } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { BlobContent } from '../../ports/use-cases/apps.js';
import type { AppBook } from './app-book.js';
import type { AppData } from './app-data.js';

type Of<T = object> = { principal: Principal; appId: string; key: string } & T;

/** `GET /apps/:id/blobs/:key`: an app's blobs are read by whoever may see the app, written only by its owner. */
export class GetBlob {
  constructor(
    private readonly book: AppBook,
    private readonly data: AppData,
  ) {}

  async execute({ principal, appId, key }: Of): Promise<BlobContent> {
    await this.book.visibleTo(principal, appId);
    const blob = await this.data.blobs(appId).get(key);
    if (!blob) throw new NotFound('Blob');
    return { key: blob.key, contentType: blob.contentType, bytes: blob.bytes };
  }
}
