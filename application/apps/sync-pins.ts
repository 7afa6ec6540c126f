import type { App } from '../../domain/apps/app.js';
import type { Clock } from '../../ports/clock.js';
import type { PinCatalog } from '../../ports/pin-catalog.js';
import type { UseCase } from '../../ports/use-case.js';
import type { SyncReport } from '../../ports/use-cases/apps.js';
import type { AppBook, LoadedApp } from './app-book.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';

/**
 * The sync (`porter sync`): re-hashes every host component of the manifest and marks the forks
 * whose baseline differs drifted (or current again when the host went back). It never rebases.
 */
export class SyncPins implements UseCase<Record<string, never>, SyncReport> {
  constructor(
    private readonly book: AppBook,
    private readonly catalog: PinCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<SyncReport> {
    const checkedAt = this.clock.now().toISOString();
    const { baselines, missing } = await this.catalog.all();
    const slots: Array<SyncReport['slots'][number]> = [];
    const drifted: Array<SyncReport['drifted'][number]> = [];
    const current: Array<SyncReport['current'][number]> = [];
    for (const baseline of baselines) {
      let driftedCount = 0;
      const forks = await this.book.all({ slot: baseline.slot });
      for (const fork of forks) {
        const settled = await this.settle(fork, baseline.hash, checkedAt);
        if (settled.changed) {
          const drift = settled.app.pinDrift();
          if (drift) drifted.push({ appId: settled.app.id, ...drift });
          else current.push({ appId: settled.app.id, slot: baseline.slot });
        }
        if (settled.app.pin?.drifted) driftedCount += 1;
      }
      slots.push({ slot: baseline.slot, hash: baseline.hash, forks: forks.length, drifted: driftedCount });
    }
    return { checkedAt, slots, drifted, current, missing };
  }

  /** Marks one fork for the component's hash; a fork changed meanwhile is read again and retried. */
  private async settle(loaded: LoadedApp, hash: string, at: string): Promise<{ app: App; changed: boolean }> {
    let current: LoadedApp | null = loaded;
    return retryOnConflict(
      async () => {
        if (!current) return { app: loaded.app, changed: false };
        const synced = current.app.synced(hash, at);
        if (!synced) return { app: current.app, changed: false };
        if (await this.book.swap(current, synced)) return { app: synced, changed: true };
        current = await this.book.find(loaded.app.id);
        return LOST_RACE;
      },
      // A fork that never stops changing is left for the next sync to settle.
      { exhausted: () => ({ app: current?.app ?? loaded.app, changed: false }) },
    );
  }
}
