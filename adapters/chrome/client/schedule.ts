import cronstrue from 'cronstrue';

/** Schedules people ask for most, as cron. */
export const SCHEDULE_PRESETS: ReadonlyArray<{ label: string; cron: string }> = [
  { label: 'Every morning at 8:00', cron: '0 8 * * *' },
  { label: 'Every weekday at 9:00', cron: '0 9 * * 1-5' },
  { label: 'Every Monday at 9:00', cron: '0 9 * * 1' },
  { label: 'Every hour', cron: '0 * * * *' },
  { label: 'Every 15 minutes', cron: '*/15 * * * *' },
  { label: 'On the 1st of every month at 9:00', cron: '0 9 1 * *' },
];

const PARTS = 'minute, hour, day of the month, month and day of the week';

/**
 * A cron pattern in plain words (cronstrue), or what is wrong with it in words a person can act
 * on. The server checks the schedule again (croner) and says the same kind of thing.
 */
export function describeSchedule(cron: string): { text: string; problem: null } | { text: null; problem: string } {
  const parts = cron.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { text: null, problem: `Write a schedule: five parts, ${PARTS}.` };
  if (parts.length < 5 || parts.length > 6)
    return {
      text: null,
      problem: `A schedule has five parts (${PARTS}); this one has ${parts.length}. For example “0 8 * * 1-5” is 8:00 on weekdays.`,
    };
  try {
    const text = cronstrue.toString(parts.join(' '), { use24HourTimeFormat: true, throwExceptionOnParseError: true, verbose: false });
    return { text, problem: null };
  } catch (error) {
    const detail = typeof error === 'string' ? error : error instanceof Error ? error.message : '';
    return {
      text: null,
      problem: `This schedule cannot be read${detail ? ` (${detail.replace(/^Error: /, '').replace(/\.$/, '')})` : ''}. Each part is a number, a range (1-5), a list (1,15), a step (*/15) or *.`,
    };
  }
}

/** How an automation's schedule reads on its card: words, and the zone when it has one. */
export function scheduleInWords(cron: string, timezone: string | undefined): string {
  const described = describeSchedule(cron);
  const words = described.text ?? `Schedule ${cron}`;
  return timezone ? `${words} (${timezone.replace(/_/g, ' ')})` : `${words} (UTC)`;
}
