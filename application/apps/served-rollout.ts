import type { App } from '../../domain/apps/app.js';
import type { AppDocument } from '../../domain/apps/app-document.js';
import { AppNotServed, AppServerStopped, AppServerUnreachable, ServedStepFailed } from '../../domain/apps/app-errors.js';
import { DomainError, NotImplemented, Unavailable } from '../../domain/errors.js';
import type { AppScaffold } from '../../ports/app-scaffold.js';
import type { Logger } from '../../ports/logger.js';
import type { Sandbox, SandboxSession, SandboxStop } from '../../ports/sandbox.js';
import type { Clock } from '../../ports/clock.js';

/**
 * Puts an app's server in its sandbox, one checked step at a time. Graduation: scaffold written,
 * server started, snapshot taken — a failed step closes the sandbox and the tree keeps serving.
 * An update of a served app: files written, server restarted, checked listening, snapshot taken —
 * a failed step restores the previous snapshot, so the previous version keeps serving (a sandbox
 * that starts the new server beside the old one never stopped serving it).
 */
export class ServedRollout {
  constructor(
    /** A deployment without one gives the null sandbox, whose open answers NotImplemented (501). */
    private readonly sandbox: Sandbox,
    private readonly logger: Logger,
    private readonly scaffold: AppScaffold,
    private readonly clock: Clock,
  ) {}

  /** The new snapshot's id once every step succeeded. */
  async graduate(app: App): Promise<string> {
    const session = await this.open(app.id, app.document, app.owner);
    try {
      await step('scaffold', () => session.writeFiles(this.scaffold.filesOf(app.document)));
      await step('start', () => session.start());
      return await step('snapshot', () => session.snapshot());
    } catch (error) {
      await session
        .close()
        .catch((cause) => this.logger.warn('could not close a sandbox after a failed graduation', { appId: app.id, cause: String(cause) }));
      throw error;
    }
  }

  /** Rolls a served app forward to `document`; the new snapshot's id. */
  async update(app: App, document: AppDocument): Promise<string> {
    const previous = app.served?.snapshotId;
    if (!previous) throw new AppNotServed(app.id);
    const session = await this.open(app.id, document, app.owner);
    try {
      await step('write', () => session.writeFiles(this.scaffold.filesOf(document)));
      await step('start', () => session.start());
      if (!(await step('listening check', () => session.isListening())))
        throw new ServedStepFailed('listening check', 'the server is not listening');
      return await step('snapshot', () => session.snapshot());
    } catch (error) {
      await this.revert(app.id, document, previous);
      throw error;
    }
  }

  /** Puts a snapshot back (the previous rung), logging rather than throwing if that fails too. */
  async revert(appId: string, document: AppDocument, snapshotId: string): Promise<void> {
    try {
      const session = await this.open(appId, document);
      await session.restore(snapshotId);
    } catch (cause) {
      this.logger.error('could not restore the previous snapshot of a served app', {
        appId,
        cause: cause instanceof Error ? cause.message : String(cause),
      });
    }
  }

  /**
   * The served app's session. A side effect, logged: when its server is not listening it is
   * brought back from the app's snapshot first (a failed restore is ServedStepFailed) — unless its
   * sandbox stopped it for crossing a limit, which holds until its cool-down has passed (503, saying why).
   */
  async runningOrRestored(app: App): Promise<SandboxSession> {
    const served = app.served;
    if (app.document.ui !== 'http' || !served) throw new AppNotServed(app.id);
    const session = await this.open(app.id, app.document, app.owner);
    if (!(await session.isListening())) {
      const stop = session.stopped?.();
      if (stop) throw this.stoppedError(stop);
      this.logger.info('restoring a served app from its snapshot', { appId: app.id, snapshotId: served.snapshotId });
      // Revived, not restored: an edit that finished while this waited must not be rolled back.
      await step('restore', () => (session.revive ? session.revive(served.snapshotId) : session.restore(served.snapshotId)));
    }
    return session;
  }

  /**
   * Whether the served app's server answers right now: `listening`, `down` (it can be brought
   * back from its snapshot), `stopped` (its sandbox stopped it for a limit; `stop` says which and
   * until when), or `unserved` when the deployment has no sandbox to serve it from.
   */
  async serverState(app: App): Promise<{ state: 'listening' | 'down' | 'unserved' } | { state: 'stopped'; stop: SandboxStop }> {
    if (!app.served) return { state: 'down' };
    try {
      const session = await this.open(app.id, app.document);
      if (await session.isListening()) return { state: 'listening' };
      const stop = session.stopped?.();
      return stop ? { state: 'stopped', stop } : { state: 'down' };
    } catch (error) {
      return { state: error instanceof NotImplemented ? 'unserved' : 'down' };
    }
  }

  /**
   * What to tell the person whose request to the app's server failed (`error`): why, when the
   * sandbox stopped the server for crossing a limit as it answered; `error` otherwise.
   */
  async explained(session: SandboxSession, error: unknown): Promise<unknown> {
    if (!(error instanceof AppServerUnreachable) || !session.stopped) return error;
    // Asked first, so the sandbox has heard how the server ended before it is asked why.
    if (await session.isListening()) return error;
    const stop = session.stopped();
    return stop ? this.stoppedError(stop) : error;
  }

  /** The refusal for a request to an app stopped for a limit: why, and when it may start again. */
  stoppedError(stop: SandboxStop): AppServerStopped {
    const seconds = Math.max(1, Math.ceil((Date.parse(stop.retryAt) - this.clock.now().getTime()) / 1000));
    return new AppServerStopped(stop, seconds);
  }

  /** Stops the app's sandbox, keeping its files and snapshots (graduation lost a race). */
  async stop(appId: string, document: AppDocument): Promise<void> {
    try {
      await (await this.open(appId, document)).close();
    } catch (cause) {
      if (cause instanceof NotImplemented) return; // no sandbox: nothing runs
      this.logger.warn('could not close an app sandbox', { appId, cause: cause instanceof Error ? cause.message : String(cause) });
    }
  }

  /**
   * Removes the app's sandbox for good — server, files, snapshots — because the app is being
   * deleted. A failure fails the delete (the cause goes to the log): deleting the app anyway would
   * orphan the sandbox with nothing left that points at it, so the app stays and can be deleted again.
   */
  async discard(appId: string, document: AppDocument): Promise<void> {
    try {
      await (await this.open(appId, document)).discard();
    } catch (cause) {
      if (cause instanceof NotImplemented) return; // no sandbox: nothing was ever served from one
      this.logger.error('could not discard an app sandbox', { appId, cause: cause instanceof Error ? cause.message : String(cause) });
      throw new Unavailable("The app's sandbox could not be removed, so the app was kept; try deleting it again");
    }
  }

  /** `owner` when a server may start: the adapter counts it against that person's servers. */
  private async open(appId: string, document: AppDocument, owner?: string): Promise<SandboxSession> {
    const egress = document.egress ? { allowDomains: document.egress.allowDomains } : null;
    return step('open', () => this.sandbox.open(appId, owner === undefined ? { egress } : { egress, owner }));
  }
}

/**
 * Runs one step; whatever it throws becomes ServedStepFailed naming the step (a provider that is
 * down stays `unavailable`), except a missing sandbox, which is the deployment's 501.
 */
async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ServedStepFailed || error instanceof NotImplemented) throw error;
    const cause = error instanceof Error ? error.message : String(error);
    if (error instanceof DomainError)
      throw new ServedStepFailed(name, cause, error instanceof Unavailable ? 'unavailable' : 'conflict', error.details ?? {});
    throw new ServedStepFailed(name, cause);
  }
}
