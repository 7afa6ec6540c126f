import { Conflict } from '../../domain/errors.js';
import type { RunDispatcher } from '../../ports/scheduler.js';
import type { UseCase } from '../../ports/use-case.js';
import type { RunRef, RunView } from '../../ports/use-cases/runs.js';
import { runView } from './run-view.js';
import { keepStartedByHand, payForHandStart, type HandStartDeps } from './started-by-hand.js';

/** A run whose automation was deleted cannot run again: its grants went with it. */
export class AutomationGone extends Conflict {
  constructor(automationId: string) {
    super(`The automation ${automationId} of this run was deleted; its runs can no longer run again`);
  }
}

/** What RerunRun is built from. */
export interface RerunRunDeps extends HandStartDeps {
  readonly dispatcher: RunDispatcher;
}

/**
 * `POST /runs/:id/rerun`: a new run of the same automation with the run's prompt and input (a
 * dry run's rerun is a dry run), started by the owner, under the automation's retry and
 * concurrency as they are now; it queues behind runs in flight like any other. Refused (429)
 * before anything is kept when the owner's `runs` or `tokens` have nothing left; a dry run's rerun
 * pays its `runs` unit here, a real run's when it begins. Owner-only.
 */
export class RerunRun implements UseCase<RunRef, RunView> {
  constructor(private readonly deps: RerunRunDeps) {}

  async execute(input: RunRef): Promise<RunView> {
    const { run } = await this.deps.runs.ownedBy(input.principal.subject, input.runId);
    const automation = (await this.deps.automations.find(run.automationId))?.automation;
    if (!automation || (await this.deps.automations.isHeld(run.automationId))) throw new AutomationGone(run.automationId);
    await payForHandStart(this.deps, input.principal, run.dryRun);
    const again = run.rerun({
      id: this.deps.ids.mint('run'),
      startedBy: input.principal.subject,
      at: this.deps.clock.now().toISOString(),
      retry: automation.retry,
      concurrency: automation.concurrency,
    });
    await keepStartedByHand(this.deps, input.principal, again, { action: 'run.rerun', outcome: 'queued', details: { of: run.id } });
    await this.deps.dispatcher.dispatch([again.id]);
    return runView(again);
  }
}
