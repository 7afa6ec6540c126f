import { App } from '../../domain/apps/app.js';
import type { AppDocument } from '../../domain/apps/app-document.js';
import { InvalidAppDocument, NotAFork, PinNotDrifted } from '../../domain/apps/app-errors.js';
import { ForkPin } from '../../domain/apps/fork-pin.js';
import { validateDocument } from '../../domain/apps/validate-document.js';
import { NotFound } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { PinBaseline, PinCatalog } from '../../ports/pin-catalog.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AppDetail, EditResult, Placement, SyncReport } from '../../ports/use-cases/apps.js';
import type { AppBook, LoadedApp } from './app-book.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { AppSharing } from './app-sharing.js';
import { detailOf, noticesOf } from './app-views.js';
import type { ApprovalInvalidation } from './approval-invalidation.js';
import { contentHashOf } from './content-hash.js';
import type { Generation } from './generation.js';
import type { ServedRollout } from './served-rollout.js';

/** The slot's baseline as the host has it now, checked; not-found for a slot the host never declared. */
async function baselineOf(catalog: PinCatalog | null, slot: string): Promise<{ baseline: PinBaseline; document: AppDocument }> {
  const baseline = catalog ? await catalog.baseline(slot) : null;
  if (!baseline) throw new NotFound('Pin slot');
  const checked = validateDocument(baseline.document);
  if (!checked.ok) throw new InvalidAppDocument(`host component of slot "${slot}"`, checked.issues);
  return { baseline, document: { ...checked.document, ui: 'tree' } };
}

/**
 * Forks a remixable slot into an app of the caller's, recording the baseline's hash. The fork
 * itself makes no model call; an instruction, when given, is the fork's first edit and is made
 * before anything is stored, so the fork is one version either way. A component declared shared
 * forks shared only for a person who may share.
 */
export class SeedApp implements UseCase<{ principal: Principal; slot: string; instruction?: string; signal?: AbortSignal }, AppDetail> {
  constructor(
    private readonly book: AppBook,
    private readonly catalog: PinCatalog | null,
    private readonly generation: Generation,
    private readonly sharing: AppSharing,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  async execute({
    principal,
    slot,
    instruction,
    signal,
  }: {
    principal: Principal;
    slot: string;
    instruction?: string;
    signal?: AbortSignal;
  }): Promise<AppDetail> {
    const { baseline, document: supplied } = await baselineOf(this.catalog, slot);
    const forked = await this.sharing.admit(principal, supplied);
    const appId = this.ids.mint('app');
    const document = instruction ? await this.generation.edit(appId, forked, instruction, signal ?? new AbortController().signal) : forked;
    const pin = instruction ? ForkPin.fork(slot, baseline.hash).recordEdit(instruction) : ForkPin.fork(slot, baseline.hash);
    const app = App.create({
      id: appId,
      owner: principal.subject,
      document,
      pin,
      version: this.ids.mint('version'),
      contentHash: contentHashOf(document),
      at: this.clock.now().toISOString(),
    });
    await this.book.insert(app, 'seed', instruction);
    return detailOf(app);
  }
}

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

/**
 * The sync (`porter sync`): re-hashes every host component of the manifest and marks the forks
 * whose baseline differs drifted (or current again when the host went back). It never rebases.
 */
export class SyncPins implements UseCase<Record<string, never>, SyncReport> {
  constructor(
    private readonly book: AppBook,
    private readonly catalog: PinCatalog | null,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<SyncReport> {
    const checkedAt = this.clock.now().toISOString();
    if (!this.catalog) return { checkedAt, slots: [], drifted: [], current: [], missing: [] };
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

/**
 * Rebase, on explicit ask only: the fork is re-made from the host's new baseline and its recorded
 * edit trail replayed through the model, all in memory; only if every step succeeds is the result
 * stored, as one new version. Approvals granted against the old content are then invalidated. The
 * new baseline does not choose the audience: the app keeps its own.
 */
export class RebasePin implements UseCase<{ principal: Principal; appId: string; slot: string; signal?: AbortSignal }, EditResult> {
  constructor(
    private readonly book: AppBook,
    private readonly catalog: PinCatalog | null,
    private readonly generation: Generation,
    private readonly rollout: ServedRollout,
    private readonly approvals: ApprovalInvalidation,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  async execute({
    principal,
    appId,
    slot,
    signal,
  }: {
    principal: Principal;
    appId: string;
    slot: string;
    signal?: AbortSignal;
  }): Promise<EditResult> {
    const loaded = await this.book.ownedBy(principal.subject, appId);
    const { app } = loaded;
    const pin = app.pin;
    if (!pin || pin.slot !== slot) throw new NotAFork(appId, slot);
    if (!pin.drifted) throw new PinNotDrifted(slot);
    const { baseline, document: fresh } = await baselineOf(this.catalog, slot);

    let document: AppDocument = { ...fresh, ui: 'tree', scope: app.document.scope };
    for (const instruction of pin.trail)
      document = await this.generation.edit(app.id, document, instruction, signal ?? new AbortController().signal);
    const at = this.clock.now().toISOString();
    let served = app.served;
    if (app.document.ui === 'http') {
      document = { ...document, ui: 'http' };
      served = { snapshotId: await this.rollout.update(app, document), servedAt: at };
    }
    const rebased = app.rebased(
      document,
      baseline.hash,
      { version: this.ids.mint('version'), contentHash: contentHashOf(document), at },
      served,
    );
    try {
      await this.book.swapContent(loaded, rebased, 'rebase');
    } catch (error) {
      if (served && app.served && served !== app.served) await this.rollout.revert(app.id, app.document, app.served.snapshotId);
      throw error;
    }
    await this.approvals.invalidate(app.id, at);
    const issues = noticesOf(rebased);
    return { app: detailOf(rebased), driftedPins: [], ...(issues.length ? { issues } : {}) };
  }
}
