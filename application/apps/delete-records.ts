import { NotFound } from '../../domain/errors.js';
import { AppDataUseCase } from './app-data.js';
import { type RecordsOf } from './app-record-view.js';

/** `DELETE /apps/:id/records/:collection[/:recordId]`: only the owner deletes. */
export class DeleteRecords extends AppDataUseCase {
  /** One record, or the whole collection when no id is given; only the owner deletes. */
  async execute({ principal, appId, collection, recordId }: RecordsOf<{ recordId?: string }>): Promise<{ deleted: number }> {
    await this.book.ownedBy(principal.subject, appId);
    const records = this.data.records(appId);
    if (recordId !== undefined) {
      if (!(await records.delete(`${collection}/${recordId}`))) throw new NotFound('Record');
      return { deleted: 1 };
    }
    let deleted = 0;
    for (;;) {
      const page = await records.list({ refs: { collection }, limit: 500 });
      if (page.items.length === 0) return { deleted };
      for (const item of page.items) if (await records.delete(item.id)) deleted += 1;
    }
  }
}
