import type { UseCase } from '../../ports/use-case.js';
import type { OpenPayload } from '../../ports/use-cases/apps.js';
import type { Principal } from '../../domain/principal.js';
import type { AppBook } from './app-book.js';
import type { ResumeServedApp } from './resume-served-app.js';
import type { ServedRollout } from './served-rollout.js';

type Of = { principal: Principal; appId: string };

/**
 * What the renderer needs to show the app: the tree, or — for a served app — where the wire
 * passes on its own page (`/apps/<id>/view/`, with a trailing slash so the page's relative links
 * stay under it). A served app whose server is down is `resuming`: opening it starts bringing the
 * server back from its snapshot (`ResumeServedApp`, which logs a failed restore), and the client
 * polls open until it reads `http`. One its sandbox stopped for crossing a limit is `stopped`, saying
 * why, until its cool-down has passed. A drifted fork says so in `pinDrift`.
 */
export class OpenApp implements UseCase<Of, OpenPayload> {
  constructor(
    private readonly book: AppBook,
    private readonly rollout: ServedRollout,
    private readonly resume: ResumeServedApp,
  ) {}

  async execute({ principal, appId }: Of): Promise<OpenPayload> {
    const { app } = await this.book.visibleTo(principal, appId);
    const payload = { appId: app.id, version: app.version, document: app.document };
    const pinDrift = app.pinDrift();
    if (app.document.ui === 'tree') return { kind: 'tree', payload, pinDrift };
    const url = `/apps/${app.id}/view/`;
    const server = await this.rollout.serverState(app);
    if (server.state === 'stopped') {
      const { limit, message, retryAt } = server.stop;
      return { kind: 'stopped', payload, url, pinDrift, stopped: { limit, message, retryAt } };
    }
    if (server.state !== 'down') return { kind: 'http', payload, url, pinDrift };
    void this.resume.begin(app);
    return { kind: 'resuming', payload, url, pinDrift };
  }
}
