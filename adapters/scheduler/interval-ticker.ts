import type { Logger } from '../../ports/logger.js';
import type { BackgroundScheduler, SchedulerWork } from '../../ports/scheduler.js';

/**
 * The development scheduler: ticks in this process every interval. A tick still running when the
 * next is due is not doubled up; overlapping ticks would be harmless anyway (slots are claimed).
 */
export class IntervalTicker implements BackgroundScheduler {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;

  constructor(
    private readonly work: Pick<SchedulerWork, 'tick'>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    if (this.timer) return;
    this.timer = setInterval(() => void this.once(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.current;
  }

  private once(): Promise<void> {
    this.current ??= this.work
      .tick()
      .then(({ runIds }) => {
        if (runIds.length) this.logger.info('scheduler tick started runs', { count: runIds.length });
      })
      .catch((error: unknown) =>
        this.logger.error('scheduler tick failed', { cause: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        this.current = null;
      });
    return this.current;
  }
}
