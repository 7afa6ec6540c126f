import { NO_RETRY } from '../../domain/automations/run-policy.js';
import { Run } from '../../domain/runs/run.js';
import type { Automation } from '../../domain/automations/automation.js';
import type { UseCase } from '../../ports/use-case.js';
import type { DryRunRequest, RunDetail, RunRef } from '../../ports/use-cases/runs.js';
import { keepStartedByHand, payForHandStart, type HandStartDeps } from './started-by-hand.js';
import type { TurnSlots } from '../usage/turn-slots.js';

/** What DryRunAutomation is built from. */
export interface DryRunAutomationDeps extends HandStartDeps {
  /** Executes the dry run here and now (the executor every run goes through). */
  readonly execute: (runId: string) => Promise<void>;
  /** Reads the run back as `GET /runs/:id` shows it. */
  readonly read: UseCase<RunRef, RunDetail>;
  /** The bound on the person's turns in flight, which a dry run (a turn run now) counts toward (`NoTurnSlots`: none). */
  readonly slots: TurnSlots;
}

/**
 * `POST /automations/:id/dry-run`: the task runs now, armed or not, as a run of its own marked
 * `dryRun`: reads run, and every write, destructive and egress call is recorded with its preview
 * instead of executed (nothing parks, so it never waits). It takes no concurrency slot, is never
 * retried and sends no completion webhook. It pays one of the person's `runs` before anything is
 * kept (429 when none is left, or no tokens), and its model steps count their tokens as any run's.
 * While it runs it holds one of the person's turns in flight (429 when all are taken), so parallel
 * dry runs are bounded like parallel turns. Answers with the ended run. Owner-only.
 */
export class DryRunAutomation implements UseCase<DryRunRequest, RunDetail> {
  constructor(private readonly deps: DryRunAutomationDeps) {}

  async execute(input: DryRunRequest): Promise<RunDetail> {
    const { automation } = await this.deps.automations.inUseBy(input.principal.subject, input.automationId);
    const runId = this.deps.ids.mint('run');
    const slot = await this.deps.slots.take(input.principal, runId);
    try {
      await payForHandStart(this.deps, input.principal, true);
      return await this.run(input, automation, runId);
    } finally {
      await slot.release();
    }
  }

  private async run(input: DryRunRequest, automation: Automation, runId: string): Promise<RunDetail> {
    const run = Run.queue({
      id: runId,
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
