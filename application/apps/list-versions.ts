import type { UseCase } from '../../ports/use-case.js';
import type { VersionSummary } from '../../ports/use-cases/apps.js';
import type { Principal } from '../../domain/principal.js';
import type { AppBook } from './app-book.js';
import { defined } from '../../domain/defined.js';

type Of = { principal: Principal; appId: string };

export class ListVersions implements UseCase<Of, { versions: VersionSummary[] }> {
  constructor(private readonly book: AppBook) {}

  async execute({ principal, appId }: Of): Promise<{ versions: VersionSummary[] }> {
    await this.book.visibleTo(principal, appId);
    const versions = await this.book.versionsOf(appId);
    return {
      versions: versions.map((v) => ({
        id: v.id,
        number: v.number,
        change: v.change,
        contentHash: v.contentHash,
        createdAt: v.createdAt,
        ...defined({ instruction: v.instruction }),
      })),
    };
  }
}
