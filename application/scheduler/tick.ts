import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { AutomationBook } from '../automations/automation-book.js';
import type { DueSlot, StartRuns } from '../runs/start-runs.js';
import type { SweepRuns } from '../runs/sweep-runs.js';
import type { PurgeDueDeletions } from '../deletions/purge-due-deletions.js';

/** What Tick is built from. */
export interface TickDeps {
  readonly automations: AutomationBook;
  readonly calendar: CronCalendar;
  readonly starts: StartRuns;
  readonly sweep: SweepRuns;
  /** Deletions past their undo window, carried out with the housekeeping; absent, none are. */
  readonly deletions?: PurgeDueDeletions;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * One tick of the scheduler, however it was driven (the interval ticker, `POST /tick`, pg-boss).
 * For every armed schedule the due slot is the latest instant at or before now, and not before the
 * automation was armed: after a long outage that is the one most recent missed instant, so a
 * missed slot fires once and never as a backlog. Claiming the slot is inserting its run if absent
 * (see slot-run-id), so concurrent ticks and several instances fire each slot exactly once. The
 * answer names the next slot any armed schedule has, which a ticker sleeps until.
 */
export class Tick {
  /** Slots this instance already saw claimed, so a quiet tick writes nothing. Only an optimisation. */
  private claimed = new Map<string, string>();

  constructor(private readonly deps: TickDeps) {}

  async execute(): Promise<{ runIds: string[]; nextSlotAt: Date | null }> {
    // Slots first, so a slot's runs start without waiting on the housekeeping.
    const claimed = await this.claimDue();
    try {
      await this.deps.sweep.execute();
    } catch (error) {
      this.deps.logger.error('the run sweep failed; slots were still claimed', {
        cause: error instanceof Error ? error.message : String(error),
      });
    }
    try {
      await this.deps.deletions?.execute();
    } catch (error) {
      this.deps.logger.error('purging deletions past their undo window failed', {
        cause: error instanceof Error ? error.message : String(error),
      });
    }
    return claimed;
  }

  private async claimDue(): Promise<{ runIds: string[]; nextSlotAt: Date | null }> {
    const now = this.deps.clock.now();
    const due: DueSlot[] = [];
    const seen = new Map<string, string>();
    // Within one tick `now` is fixed, so each distinct schedule is worked out once.
    const slots = new Map<string, Date | null>();
    let nextSlotAt: Date | null = null;
    for (const automation of await this.deps.automations.armedSchedules()) {
      const trigger = automation.trigger;
      if (trigger.kind !== 'schedule') continue;
      const key = `${trigger.cron}\u0000${trigger.timezone ?? ''}`;
      if (!slots.has(key)) {
        slots.set(key, this.deps.calendar.latestAtOrBefore(trigger.cron, trigger.timezone, now));
        const next = this.deps.calendar.nextAfter(trigger.cron, trigger.timezone, now);
        if (next && (!nextSlotAt || next < nextSlotAt)) nextSlotAt = next;
      }
      const slot = slots.get(key)!;
      if (!slot) continue;
      const instant = slot.toISOString();
      if (automation.armedAt !== null && instant < automation.armedAt) continue;
      seen.set(automation.id, instant);
      if (this.claimed.get(automation.id) !== instant) due.push({ automation, slot });
    }
    const runIds = await this.deps.starts.forSlots(due);
    this.claimed = seen;
    return { runIds, nextSlotAt };
  }
}
