import { Run } from '../../domain/runs/run.js';
import type { RunDispatcher } from '../../ports/scheduler.js';
import type { UseCase } from '../../ports/use-case.js';
import type { RunNowRequest, RunView } from '../../ports/use-cases/runs.js';
import { runView } from './run-view.js';
import { keepStartedByHand, payForHandStart, type HandStartDeps } from './started-by-hand.js';

/** What RunAutomationNow is built from. */
export interface RunAutomationNowDeps extends HandStartDeps {
  readonly dispatcher: RunDispatcher;
}

/**
 * The owner asks for a run of their automation now (the door's and the chat's
 * `porter_automations_run`): armed or not, a real run like a scheduled one (its calls act as the
 * owner, away, with the automation's standing grants only, so a write it was not granted waits
 * for the owner's approval), under its retry and concurrency, queued behind runs in flight.
 * Refused (429) before anything is kept when the owner's `runs` or `tokens` have nothing left;
 * its `runs` unit is charged when it begins. Someone else's automation is 404.
 */
export class RunAutomationNow implements UseCase<RunNowRequest, RunView> {
  constructor(private readonly deps: RunAutomationNowDeps) {}

  async execute(input: RunNowRequest): Promise<RunView> {
    const { automation } = await this.deps.automations.inUseBy(input.principal.subject, input.automationId);
    await payForHandStart(this.deps, input.principal, false);
    const run = Run.queue({
      id: this.deps.ids.mint('run'),
      automationId: automation.id,
      owner: automation.owner,
      startedBy: input.principal.subject,
      cause: { kind: 'run-now', venue: input.venue },
      prompt: automation.task.prompt,
      input: input.input ?? null,
      createdAt: this.deps.clock.now().toISOString(),
      dryRun: false,
      retry: automation.retry,
      concurrency: automation.concurrency,
    });
    await keepStartedByHand(this.deps, input.principal, run, { action: 'run.run-now', outcome: 'queued', details: { venue: input.venue } });
    await this.deps.dispatcher.dispatch([run.id]);
    return runView(run);
  }
}
