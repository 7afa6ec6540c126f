import type { Logger } from '../../ports/logger.js';
import type { BackgroundScheduler, SchedulerWork, ScheduleWakeUps } from '../../ports/scheduler.js';

/** A tick this long after a slot, so a timer that fires a hair early still sees the slot due. */
const PAST_SLOT_MS = 5;
const MINUTE_MS = 60_000;
/** How long after a schedule is armed the ticker looks, so a burst of armings makes one tick. */
const AFTER_ARMING_MS = 25;

/**
 * The in-process ticker: ticks at the next slot an armed schedule names (the tick says which), at
 * every minute's start (a schedule armed since the last tick is due at a minute's start at the
 * latest, unless it names seconds), and at least every interval (the sweep's housekeeping). Every
 * instance runs one: the slot's claim makes the ticks of several instances fire it once, and an
 * instance that dies leaves the others ticking. A tick still running when the next is due is not
 * doubled up. `afterTick` runs after each tick (whoever won the slots' claims): the run engine's
 * workers look for the slot's runs then rather than at their next poll. A schedule armed on any
 * instance wakes every ticker, which then learns its next slot (it may name seconds).
 */
export class IntervalTicker implements BackgroundScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private current: Promise<void> | null = null;
  private wakeAt = Infinity;
  /** Armed while a tick ran: that tick may have read the schedules before, so look again after it. */
  private wokenMidTick = false;
  private unwatch: (() => void) | null = null;

  constructor(
    private readonly work: Pick<SchedulerWork, 'tick'>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly afterTick: () => void = () => {},
    private readonly schedules: ScheduleWakeUps | null = null,
  ) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.arm(null);
    this.unwatch = (await this.schedules?.watch(() => this.wakeSoon())) ?? null;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unwatch?.();
    this.unwatch = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }

  /** A schedule was armed: tick shortly, unless a tick is due sooner. */
  private wakeSoon(): void {
    if (!this.running) return;
    if (this.current) {
      this.wokenMidTick = true;
      return;
    }
    const at = Date.now() + AFTER_ARMING_MS;
    if (at < this.wakeAt) this.sleepUntil(at);
  }

  /** Sleeps until the earliest of the next slot, the next minute's start and an interval from now. */
  private arm(nextSlotAt: Date | null): void {
    if (!this.running) return;
    const now = Date.now();
    const nextMinute = Math.floor(now / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    this.sleepUntil(
      Math.min(now + this.intervalMs, nextMinute + PAST_SLOT_MS, nextSlotAt ? nextSlotAt.getTime() + PAST_SLOT_MS : Infinity),
    );
  }

  private sleepUntil(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(() => void this.once(), Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  private once(): Promise<void> {
    this.wakeAt = Infinity;
    this.current ??= this.work
      .tick()
      .then(({ runIds, nextSlotAt }) => {
        if (runIds.length) this.logger.info('scheduler tick started runs', { count: runIds.length });
        this.afterTick();
        return nextSlotAt ?? null;
      })
      .catch((error: unknown) => {
        this.logger.error('scheduler tick failed', { cause: error instanceof Error ? error.message : String(error) });
        return null;
      })
      .then((nextSlotAt) => {
        this.current = null;
        this.arm(nextSlotAt);
        if (this.wokenMidTick) {
          this.wokenMidTick = false;
          this.wakeSoon();
        }
      });
    return this.current;
  }
}
