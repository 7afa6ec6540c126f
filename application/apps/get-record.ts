import { NotFound } from '../../domain/errors.js';
import type { AppRecordView } from '../../ports/use-cases/apps.js';
import { AppDataUseCase } from './app-data.js';
import { appRecordView, type RecordsOf } from './app-record-view.js';

/** `GET /apps/:id/records/:collection/:recordId`: readable by whoever may see the app. */
export class GetRecord extends AppDataUseCase {
  async execute({ principal, appId, collection, recordId }: RecordsOf<{ recordId: string }>): Promise<AppRecordView> {
    await this.book.visibleTo(principal, appId);
    const record = await this.data.records(appId).get(`${collection}/${recordId}`);
    if (!record) throw new NotFound('Record');
    return appRecordView(record);
  }
}
