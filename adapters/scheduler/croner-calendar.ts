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
      return plainProblem(error instanceof Error ? error.message : String(error), timezone);
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

const PART_NAMES = ['minute', 'hour', 'day of the month', 'month', 'day of the week'];

/** croner's refusal in words a person reads on a form, instead of its parser's own text. */
function plainProblem(message: string, timezone: string | undefined): string {
  if (/space separated parts/.test(message))
    return 'a schedule has five parts: minute, hour, day of the month, month and day of the week, e.g. "0 8 * * 1-5" (8:00 on weekdays)';
  const value = /Invalid value for (\w+): (.*)$/.exec(message);
  if (value)
    return `"${value[2]}" is not a ${value[1]} this schedule can use (minutes 0-59, hours 0-23, days 1-31, months 1-12, weekdays 0-7)`;
  const illegal = /entry (\d+) \((.*)\) contains illegal characters/.exec(message);
  if (illegal)
    return `the ${PART_NAMES[Number(illegal[1]) - 1] ?? 'part'} "${illegal[2]}" must be a number, a range (1-5), a list (1,15), a step (*/15) or *`;
  if (/timezone/i.test(message)) return `"${timezone}" is not a time zone; use a name such as Europe/Paris or America/New_York`;
  return `this schedule could not be read (${message.replace(/^Cron\w*: /, '')})`;
}
