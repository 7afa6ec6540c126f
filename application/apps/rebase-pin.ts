import type { AppDocument } from '../../domain/apps/app-document.js';
import { NotAFork, PinNotDrifted } from '../../domain/apps/app-errors.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { EditResult } from '../../ports/use-cases/apps.js';
import { detailOf, noticesOf } from './app-views.js';
import type { ApprovalInvalidation } from './approval-invalidation.js';
import { contentHashOf } from './content-hash.js';
import type { ServedRollout } from './served-rollout.js';
import { baselineOf, type ForkingDeps } from './pin-baseline.js';
import { defined } from '../../domain/defined.js';

type RebaseInput = { principal: Principal; appId: string; slot: string; signal?: AbortSignal; withinTurn?: boolean };

/** What RebasePin is built from. */
export interface RebasePinDeps extends ForkingDeps {
  readonly rollout: ServedRollout;
  readonly approvals: ApprovalInvalidation;
}

/**
 * Rebase, on explicit ask only: the fork is re-made from the host's new baseline and its recorded
 * edit trail replayed through the model, all in memory; only if every step succeeds is the result
 * stored, as one new version. Approvals granted against the old content are then invalidated. The
 * new baseline does not choose the audience: the app keeps its own. A replay is paid like an edit:
 * a place among the person's turns in flight and one of their `appGenerations` for the new
 * version, reserved before the model is first asked (429 when either is spent), and the tokens of
 * every step, each starting only while a token is left.
 */
export class RebasePin implements UseCase<RebaseInput, EditResult> {
  constructor(private readonly deps: RebasePinDeps) {}

  async execute({ principal, appId, slot, signal, withinTurn }: RebaseInput): Promise<EditResult> {
    const loaded = await this.deps.book.ownedBy(principal.subject, appId);
    const { app } = loaded;
    const pin = app.pin;
    if (!pin || pin.slot !== slot) throw new NotAFork(appId, slot);
    if (!pin.drifted) throw new PinNotDrifted(slot);
    const { baseline, document: fresh } = await baselineOf(this.deps.catalog, slot);

    let document = await this.replay(principal, app.id, { ...fresh, ui: 'tree', scope: app.document.scope }, pin.trail, {
      signal: signal ?? new AbortController().signal,
      withinTurn: withinTurn === true,
    });
    const at = this.deps.clock.now().toISOString();
    let served = app.served;
    if (app.document.ui === 'http') {
      document = { ...document, ui: 'http' };
      served = { snapshotId: await this.deps.rollout.update(app, document), servedAt: at };
    }
    const rebased = app.rebased(
      document,
      baseline.hash,
      { version: this.deps.ids.mint('version'), contentHash: contentHashOf(document), at },
      served,
    );
    try {
      await this.deps.book.swapContent(loaded, rebased, 'rebase');
    } catch (error) {
      if (served && app.served && served !== app.served) await this.deps.rollout.revert(app.id, app.document, app.served.snapshotId);
      throw error;
    }
    await this.deps.approvals.invalidate(app.id, at);
    const issues = noticesOf(rebased);
    return { app: detailOf(rebased), driftedPins: [], ...defined({ issues: issues.length ? issues : undefined }) };
  }

  /**
   * The trail replayed over the new baseline, in memory. Paid before the model is first asked (a
   * place among the person's turns in flight, held while it runs, and one of their
   * `appGenerations`); an empty trail asks no model and pays nothing.
   */
  private async replay(
    principal: Principal,
    appId: string,
    baseline: AppDocument,
    trail: ReadonlyArray<string>,
    { signal, withinTurn }: { signal: AbortSignal; withinTurn: boolean },
  ): Promise<AppDocument> {
    if (trail.length === 0) return baseline;
    const place = await this.deps.generation.reserve(principal, this.deps.ids.mint('turn'), withinTurn);
    try {
      let document = baseline;
      for (const instruction of trail) document = await this.deps.generation.edit(principal, appId, document, instruction, signal);
      return document;
    } finally {
      await place.release();
    }
  }
}
