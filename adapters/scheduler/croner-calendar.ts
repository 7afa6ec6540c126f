import { Cron } from 'croner';
import type { CronCalendar } from '../../ports/scheduler.js';

/** Parsed schedules kept for reuse; a deployment has far fewer distinct patterns than automations. */
const CACHE_LIMIT = 1_000;

/**
 * Cron arithmetic with croner: five-field (or six, with seconds) patterns, in an IANA timezone
 * (UTC when none is given), so "09:00 in Europe/Paris" follows daylight saving.
 */
export class CronerCalendar implements CronCalendar {
  private readonly cache = new Map<string, Cron>();

  problem(cron: string, timezone?: string): string | null {
    try {
      if (this.cronOf(cron, timezone).nextRun(new Date()) === null) return 'the schedule never fires';
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  latestAtOrBefore(cron: string, timezone: string | undefined, at: Date): Date | null {
    // croner's previousRuns excludes the reference's own second; a reference one second later
    // includes an instant exactly at `at`.
    const [latest] = this.cronOf(cron, timezone).previousRuns(1, new Date(at.getTime() + 1000));
    return latest && latest.getTime() <= at.getTime() ? latest : null;
  }

  nextAfter(cron: string, timezone: string | undefined, at: Date): Date | null {
    return this.cronOf(cron, timezone).nextRun(at);
  }

  private cronOf(cron: string, timezone: string | undefined): Cron {
    const key = `${cron}\u0000${timezone ?? 'UTC'}`;
    let parsed = this.cache.get(key);
    if (!parsed) {
      parsed = new Cron(cron, { paused: true, timezone: timezone ?? 'UTC' });
      if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, parsed);
    }
    return parsed;
  }
}
