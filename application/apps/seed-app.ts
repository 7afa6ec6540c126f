import { App } from '../../domain/apps/app.js';
import { ForkPin } from '../../domain/apps/fork-pin.js';
import type { Principal } from '../../domain/principal.js';
import type { AppDocument } from '../../domain/apps/app-document.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AppDetail } from '../../ports/use-cases/apps.js';
import type { AppSharing } from './app-sharing.js';
import { detailOf } from './app-views.js';
import { contentHashOf } from './content-hash.js';
import { baselineOf, type ForkingDeps } from './pin-baseline.js';

type SeedInput = { principal: Principal; slot: string; instruction?: string; signal?: AbortSignal };

/** What SeedApp is built from. */
export interface SeedAppDeps extends ForkingDeps {
  readonly sharing: AppSharing;
}

/**
 * Forks a remixable slot into an app of the caller's, recording the baseline's hash. The fork
 * itself makes no model call; an instruction, when given, is the fork's first edit and is made
 * before anything is stored, so the fork is one version either way. That edit is paid like any:
 * a place among the person's turns in flight and one of their `appGenerations`, reserved before
 * the model is asked (429 when either is spent), and its tokens. A component declared shared forks shared only for a person who may share.
 */
export class SeedApp implements UseCase<SeedInput, AppDetail> {
  constructor(private readonly deps: SeedAppDeps) {}

  async execute({ principal, slot, instruction, signal }: SeedInput): Promise<AppDetail> {
    const { baseline, document: supplied } = await baselineOf(this.deps.catalog, slot);
    const forked = await this.deps.sharing.admit(principal, supplied);
    const appId = this.deps.ids.mint('app');
    const document = instruction ? await this.firstEdit(principal, appId, forked, instruction, signal) : forked;
    const pin = instruction ? ForkPin.fork(slot, baseline.hash).recordEdit(instruction) : ForkPin.fork(slot, baseline.hash);
    const app = App.create({
      id: appId,
      owner: principal.subject,
      document,
      pin,
      version: this.deps.ids.mint('version'),
      contentHash: contentHashOf(document),
      at: this.deps.clock.now().toISOString(),
    });
    await this.deps.book.insert(app, 'seed', instruction);
    return detailOf(app);
  }

  /** The instruction's edit, paid before the model is asked (a place in flight, one of `appGenerations`) and held while it runs. */
  private async firstEdit(principal: Principal, appId: string, forked: AppDocument, instruction: string, signal?: AbortSignal) {
    const place = await this.deps.generation.reserve(principal, this.deps.ids.mint('turn'));
    try {
      return await this.deps.generation.edit(principal, appId, forked, instruction, signal ?? new AbortController().signal);
    } finally {
      await place.release();
    }
  }
}
