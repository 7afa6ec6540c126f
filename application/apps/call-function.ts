import { NotFound, Unavailable } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { FunctionAnswer } from '../../ports/use-cases/apps.js';
import type { AppBook } from './app-book.js';
import { askServedApp, orUnreachable } from './ask-served-app.js';
import type { ServedRollout } from './served-rollout.js';

/** The largest answer a function may send back through the wire. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The served app's function failed or answered with an error status. */
export class AppFunctionFailed extends Unavailable {
  constructor(name: string, status: number, detail: string) {
    super(`The app's function ${name} answered ${status}`, { status, body: detail.slice(0, 2000) });
  }
}

type Input = { principal: Principal; appId: string; name: string; input: unknown };

/**
 * `POST /apps/:id/fn/:name`: proxied to `POST /fn/<name>` on the served app's own server (restored
 * from its snapshot first when it went away, logged by ServedRollout).
 */
export class CallFunction implements UseCase<Input, FunctionAnswer> {
  constructor(
    private readonly book: AppBook,
    private readonly rollout: ServedRollout,
  ) {}

  async execute({ principal, appId, name, input }: Input): Promise<FunctionAnswer> {
    const { app } = await this.book.visibleTo(principal, appId);
    const session = await this.rollout.runningOrRestored(app);
    const explained = async (error: unknown): Promise<never> => {
      throw await this.rollout.explained(session, error);
    };
    const response = await askServedApp(session, `/fn/${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input ?? null),
    }).catch(explained);
    const body = new Uint8Array(await orUnreachable(response.arrayBuffer()).catch(explained));
    if (body.byteLength > MAX_ANSWER_BYTES) throw new AppFunctionFailed(name, 502, 'the answer is too large');
    if (response.status === 404 || response.status === 501) throw new NotFound(`Function ${name}`);
    if (!response.ok) throw new AppFunctionFailed(name, response.status, new TextDecoder().decode(body));
    return { status: response.status, contentType: response.headers.get('content-type') ?? 'application/octet-stream', body };
  }
}
