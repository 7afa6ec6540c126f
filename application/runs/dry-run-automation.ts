import { NO_RETRY } from '../../domain/automations/run-policy.js';
import { Run } from '../../domain/runs/run.js';
import type { UseCase } from '../../ports/use-case.js';
import type { DryRunRequest, RunDetail, RunRef } from '../../ports/use-cases/runs.js';
import { keepStartedByHand, payForHandStart, type HandStartDeps } from './started-by-hand.js';

/** What DryRunAutomation is built from. */
export interface DryRunAutomationDeps extends HandStartDeps {
  /** Executes the dry run here and now (the executor every run goes through). */
  readonly execute: (runId: string) => Promise<void>;
  /** Reads the run back as `GET /runs/:id` shows it. */
  readonly read: UseCase<RunRef, RunDetail>;
}

/**
 * `POST /automations/:id/dry-run`: the task runs now, armed or not, as a run of its own marked
 * `dryRun`: reads run, and every write, destructive and egress call is recorded with its preview
 * instead of executed (nothing parks, so it never waits). It takes no concurrency slot, is never
 * retried and sends no completion webhook. It pays one of the person's `runs` before anything is
 * kept (429 when none is left, or no tokens), and its model steps count their tokens as any run's.
 * Answers with the ended run. Owner-only.
 */
export class DryRunAutomation implements UseCase<DryRunRequest, RunDetail> {
  constructor(private readonly deps: DryRunAutomationDeps) {}

  async execute(input: DryRunRequest): Promise<RunDetail> {
    const { automation } = await this.deps.automations.ownedBy(input.principal.subject, input.automationId);
    await payForHandStart(this.deps, input.principal, true);
    const run = Run.queue({
      id: this.deps.ids.mint('run'),
      automationId: automation.id,
      owner: automation.owner,
      startedBy: input.principal.subject,
      cause: { kind: 'dry-run' },
      prompt: automation.task.prompt,
      input: input.input ?? null,
      createdAt: this.deps.clock.now().toISOString(),
      dryRun: true,
      retry: NO_RETRY,
      concurrency: automation.concurrency,
    });
    await keepStartedByHand(this.deps, input.principal, run, { action: 'run.dry-run', outcome: 'started' });
    await this.deps.execute(run.id);
    return this.deps.read.execute({ principal: input.principal, runId: run.id });
  }
}
