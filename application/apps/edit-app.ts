import type { UseCase } from '../../ports/use-case.js';
import type { AppsUseCases, EditResult } from '../../ports/use-cases/apps.js';
import { detailOf, noticesOf } from './app-views.js';
import { contentHashOf } from './content-hash.js';
import { Generation, type GeneratingDeps } from './generation.js';
import type { ServedRollout } from './served-rollout.js';
import type { LoadedApp } from './app-book.js';
import { defined } from '../../domain/defined.js';

type Input = Parameters<AppsUseCases['editApp']['execute']>[0];

/** What EditApp is built from. */
export interface EditAppDeps extends GeneratingDeps {
  readonly rollout: ServedRollout;
}

/**
 * One edit, one version. A tree app's new document is stored as it is; a served app's is rolled
 * out to its sandbox first (checked listening before the snapshot), and only a successful
 * rollout is stored — otherwise the previous snapshot is put back and serves on.
 */
export class EditApp implements UseCase<Input, EditResult> {
  constructor(private readonly deps: EditAppDeps) {}

  async execute(input: Input): Promise<EditResult> {
    const loaded = await this.deps.book.ownedBy(input.principal.subject, input.appId);
    // A place among the person's turns in flight and one of their `appGenerations`, reserved before the model is asked.
    const place = await this.deps.generation.reserve(input.principal, this.deps.ids.mint('turn'), input.withinTurn);
    try {
      return await this.edit(input, loaded);
    } finally {
      await place.release();
    }
  }

  private async edit({ principal, instruction, view, signal }: Input, loaded: LoadedApp): Promise<EditResult> {
    const { app } = loaded;
    const document = await this.deps.generation.edit(
      principal,
      app.id,
      app.document,
      instruction,
      signal ?? new AbortController().signal,
      view,
    );
    const at = this.deps.clock.now().toISOString();
    const next = { version: this.deps.ids.mint('version'), contentHash: contentHashOf(document), at };
    let served = app.served;
    if (app.document.ui === 'http') {
      try {
        served = { snapshotId: await this.deps.rollout.update(app, document), servedAt: at };
      } catch (error) {
        Generation.failed(app.id, app.document, error instanceof Error ? error.message : String(error), view);
        throw error;
      }
    }
    const edited = app.edited(document, instruction, next, served);
    try {
      await this.deps.book.swapContent(loaded, edited, 'edit', instruction);
    } catch (error) {
      // Another change won: the rollout we made must not outlive it, and the view says this edit was not kept.
      if (served && app.served && served !== app.served) await this.deps.rollout.revert(app.id, app.document, app.served.snapshotId);
      Generation.failed(app.id, app.document, error instanceof Error ? error.message : String(error), view);
      throw error;
    }
    const drift = edited.pinDrift();
    Generation.ready(app.id, document, view, drift);
    const issues = noticesOf(edited);
    return { app: detailOf(edited), driftedPins: drift ? [drift] : [], ...defined({ issues: issues.length ? issues : undefined }) };
  }
}
