import { AppToolBlocked, AppToolFailed, NotAToolAction } from '../../domain/apps/app-errors.js';
import { InvalidInput, NotFound } from '../../domain/errors.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ActionAnswer, RunActionInput } from '../../ports/use-cases/apps.js';
import type { CallResult } from '../guard/call-result.js';
import type { GuardCall } from '../guard/guard-call.js';
import type { AppBook } from './app-book.js';
import { defined } from '../../domain/defined.js';

/**
 * `POST /apps/:id/actions/:action`: an app runs one of the host's tools, through the guard, as the
 * person using it (venue `app`, present, their own credentials). The app is the session, and an
 * identical retry reuses the call it parked, so once the person approves, the retry runs it
 * exactly once; after that the same call asks again. Anyone who may open the app may run its
 * actions — as themselves, under their own grants and approvals.
 */
export class RunAppAction implements UseCase<RunActionInput, ActionAnswer> {
  constructor(
    private readonly book: AppBook,
    private readonly guard: GuardCall,
    private readonly ids: Ids,
  ) {}

  async execute(request: RunActionInput): Promise<ActionAnswer> {
    const { app } = await this.book.visibleTo(request.principal, request.appId);
    const action = Object.hasOwn(app.document.actions, request.action) ? app.document.actions[request.action] : undefined;
    if (!action) throw new NotFound('Action');
    if (action.kind !== 'tool') throw new NotAToolAction(app.id, request.action);

    const result = await this.guard.execute({
      tool: action.tool,
      input: { ...request.input, ...action.input },
      toolCallId: this.ids.mint('toolCall'),
      principal: request.principal,
      venue: 'app',
      presence: 'present',
      session: app.id,
      ...defined({ credentials: request.credentials }),
      reuseParked: true,
      signal: request.signal ?? new AbortController().signal,
    });
    if (result.status === 'ran') return { status: 'ran', output: result.output };
    if (result.status === 'parked') return { status: 'parked', ...result.parked };
    throw refusalOf(action.tool, result);
  }
}

/** An app's page is answered with a tool's output or a parked call; every other outcome is an error the page is told. */
function refusalOf(tool: string, result: Exclude<CallResult, { status: 'ran' | 'parked' }>): Error {
  switch (result.status) {
    case 'blocked':
      return new AppToolBlocked(tool, result.reason);
    case 'invalid':
      return new InvalidInput(
        `The input for ${tool} is not valid: ${result.issues.join('; ')}`,
        result.issues.map((message) => ({ path: 'input', message })),
      );
    case 'failed':
      return new AppToolFailed(tool, result.error, result.code);
  }
}
