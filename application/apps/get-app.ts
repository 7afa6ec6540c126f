import type { UseCase } from '../../ports/use-case.js';
import type { AppDetail } from '../../ports/use-cases/apps.js';
import type { Principal } from '../../domain/principal.js';
import type { AppBook } from './app-book.js';
import { detailOf } from './app-views.js';

type Of = { principal: Principal; appId: string };

export class GetApp implements UseCase<Of, AppDetail> {
  constructor(private readonly book: AppBook) {}

  async execute({ principal, appId }: Of): Promise<AppDetail> {
    return detailOf((await this.book.visibleTo(principal, appId)).app);
  }
}
