import { NotFound } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { AppBook } from './app-book.js';
import type { AppData } from './app-data.js';

type Of<T = object> = { principal: Principal; appId: string; key: string } & T;

/** `DELETE /apps/:id/blobs/:key`: only the app's owner deletes its blobs. */
export class DeleteBlob {
  constructor(
    private readonly book: AppBook,
    private readonly data: AppData,
  ) {}

  async execute({ principal, appId, key }: Of): Promise<void> {
    await this.book.ownedBy(principal.subject, appId);
    if (!(await this.data.blobs(appId).delete(key))) throw new NotFound('Blob');
  }
}
