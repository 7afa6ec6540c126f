import { AppDataUseCase } from './app-data.js';
import { appRecordView, type RecordsOf } from './app-record-view.js';

/** `GET /apps/:id/records/:collection`: readable by whoever may see the app. */
export class ListRecords extends AppDataUseCase {
  async execute({ principal, appId, collection, limit, cursor }: RecordsOf<{ limit?: number; cursor?: string | null }>) {
    await this.book.visibleTo(principal, appId);
    const page = await this.data.records(appId).list({ refs: { collection }, limit: limit ?? 50, cursor: cursor ?? null });
    return { records: page.items.map(appRecordView), nextCursor: page.nextCursor };
  }
}
