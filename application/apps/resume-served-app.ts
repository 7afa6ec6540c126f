import type { App } from '../../domain/apps/app.js';
import type { Logger } from '../../ports/logger.js';
import type { ServedRollout } from './served-rollout.js';

/**
 * Brings a served app whose server went away back from its snapshot, in the background: opening
 * the app answers `resuming` at once and the client polls open until it reads `http`. Nobody waits
 * on the restore, so its failure is logged here (the next open tries again), never thrown.
 */
export class ResumeServedApp {
  constructor(
    private readonly rollout: ServedRollout,
    private readonly logger: Logger,
  ) {}

  /** Starts the restore; the promise settles when it is over and never rejects. */
  begin(app: App): Promise<void> {
    return this.rollout.runningOrRestored(app).then(
      () => undefined,
      (cause: unknown) =>
        this.logger.warn('could not resume a served app from its snapshot', {
          appId: app.id,
          cause: cause instanceof Error ? cause.message : String(cause),
        }),
    );
  }
}
