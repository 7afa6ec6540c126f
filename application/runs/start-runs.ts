import type { Automation } from '../../domain/automations/automation.js';
import { Run, SCHEDULER_SUBJECT } from '../../domain/runs/run.js';
import { webhookSubject } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { RunDispatcher } from '../../ports/scheduler.js';
import { deliveryRunId, slotRunId } from '../scheduler/slot-run-id.js';
import type { RunBook } from './run-book.js';

/** A schedule instant that is due for an armed automation. */
export interface DueSlot {
  readonly automation: Automation;
  readonly slot: Date;
}

/**
 * Starts runs: each is written queued, with its automation's retry and concurrency as they are
 * now, then handed to the dispatcher (whose executor takes a concurrency slot or leaves it queued).
 * A schedule slot's run has an id derived from the slot, so writing it if absent is the slot's
 * exactly-once claim.
 */
export class StartRuns {
  constructor(
    private readonly runs: RunBook,
    private readonly dispatcher: RunDispatcher,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  /** The ids of the runs this caller started: slots someone else claimed first are left out. */
  async forSlots(due: ReadonlyArray<DueSlot>): Promise<string[]> {
    const now = this.clock.now().toISOString();
    // All slots claimed in a few multi-row inserts: each slot is still decided atomically, and a
    // tick over thousands of due automations costs a few statements, not one commit per slot.
    const runs = due.map(({ automation, slot }) =>
      this.queue(automation, slotRunId(automation.id, slot), SCHEDULER_SUBJECT, { kind: 'schedule', slot: slot.toISOString() }, null, now),
    );
    const started = await this.runs.addManyIfAbsent(runs);
    if (started.length) await this.dispatcher.dispatch(started);
    return started;
  }

  /**
   * One run per armed automation on the source, started by `porter:webhook:<source>`. Run ids are
   * derived from the delivery and when it was first received, so resuming a delivery cut short
   * adds only the runs still missing, and hands every one to the dispatcher again (an executor only
   * ever begins a queued run once).
   */
  async forDelivery(
    automations: ReadonlyArray<Automation>,
    source: string,
    deliveryId: string,
    input: string,
    receivedAt: Date,
  ): Promise<string[]> {
    const now = this.clock.now().toISOString();
    const runs = automations.map((automation) =>
      this.queue(
        automation,
        deliveryRunId(automation.id, source, deliveryId, receivedAt),
        webhookSubject(source),
        { kind: 'webhook', source, deliveryId },
        input,
        now,
      ),
    );
    await this.runs.addManyIfAbsent(runs);
    const ids = runs.map((run) => run.id);
    if (ids.length) await this.dispatcher.dispatch(ids);
    return ids;
  }

  private queue(
    automation: Automation,
    id: string,
    startedBy: string,
    cause: Parameters<typeof Run.queue>[0]['cause'],
    input: string | null,
    now: string,
  ): Run {
    return Run.queue({
      id,
      automationId: automation.id,
      owner: automation.owner,
      startedBy,
      cause,
      prompt: automation.task.prompt,
      input,
      createdAt: now,
      dryRun: false,
      retry: automation.retry,
      concurrency: automation.concurrency,
    });
  }
}
