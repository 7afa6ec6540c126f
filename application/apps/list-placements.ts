import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { Placement } from '../../ports/use-cases/apps.js';
import type { AppBook } from './app-book.js';

/** For each slot, the caller's newest fork (the host renders it in place of its component). */
export class ListPlacements implements UseCase<{ principal: Principal; slots: ReadonlyArray<string> }, { placements: Placement[] }> {
  constructor(private readonly book: AppBook) {}

  async execute({ principal, slots }: { principal: Principal; slots: ReadonlyArray<string> }): Promise<{ placements: Placement[] }> {
    const placements: Placement[] = [];
    for (const slot of slots) {
      const newest = (await this.book.list({ owner: principal.subject, slot }, 1)).items[0]?.app;
      placements.push({ slot, appId: newest?.id ?? null, version: newest?.version ?? null, drifted: newest?.pin?.drifted ?? false });
    }
    return { placements };
  }
}
