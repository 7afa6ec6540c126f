import { App } from '../../domain/apps/app.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AppDetail, AppsUseCases } from '../../ports/use-cases/apps.js';
import type { AppSharing } from './app-sharing.js';
import { detailOf } from './app-views.js';
import { contentHashOf } from './content-hash.js';
import { Generation, type GeneratingDeps } from './generation.js';

type Input = Parameters<AppsUseCases['createApp']['execute']>[0];

/** What CreateApp is built from. */
export interface CreateAppDeps extends GeneratingDeps {
  readonly sharing: AppSharing;
}

/**
 * Generates a new tree app from a prompt, streaming its view, and stores it as version 1, shared
 * only if the model asked for it and the person may share.
 */
export class CreateApp implements UseCase<Input, AppDetail> {
  constructor(private readonly deps: CreateAppDeps) {}

  async execute(input: Input): Promise<AppDetail> {
    // A place among the person's turns in flight and one of their `appGenerations`, reserved before the model is asked.
    const place = await this.deps.generation.reserve(input.principal, this.deps.ids.mint('turn'), input.withinTurn);
    try {
      return await this.generate(input);
    } finally {
      await place.release();
    }
  }

  private async generate({ principal, prompt, view, signal }: Input): Promise<AppDetail> {
    const appId = this.deps.ids.mint('app');
    const document = await this.deps.sharing.admit(
      principal,
      await this.deps.generation.create(principal, appId, prompt, signal ?? new AbortController().signal, view),
    );
    const app = App.create({
      id: appId,
      owner: principal.subject,
      document,
      version: this.deps.ids.mint('version'),
      contentHash: contentHashOf(document),
      at: this.deps.clock.now().toISOString(),
    });
    try {
      await this.deps.book.insert(app, 'create', prompt);
    } catch (error) {
      // The person watched it build: the view must not stay "building" for an app that was not kept.
      Generation.failed(appId, document, error instanceof Error ? error.message : String(error), view);
      throw error;
    }
    Generation.ready(appId, document, view);
    return detailOf(app);
  }
}
