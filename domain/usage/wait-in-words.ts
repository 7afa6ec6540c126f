/**
 * A wait in words a person reads at a glance: "in 42 seconds", "in about 5 minutes", "in about 1
 * hour", in the given locale (Intl.RelativeTimeFormat), rounded to its largest unit. The exact
 * seconds stay where programs read them (`Retry-After`, `details.retryAfter`).
 */
export function waitInWords(seconds: number, locale: string | undefined = 'en'): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  const s = Math.max(1, Math.ceil(seconds));
  const [value, unit] = inLargestUnit(s);
  const rounded = Math.max(1, Math.round(value));
  const words = format.format(rounded, unit);
  // "about" only where rounding hid something, and only in English, whose phrase we know.
  return rounded !== value && /^en\b/i.test(format.resolvedOptions().locale) ? words.replace(/^in /, 'in about ') : words;
}

/**
 * The largest unit the wait reaches once rounded in the unit below it, so 3,590 s is "about 1 hour"
 * rather than "60 minutes", and 23.6 hours "about 1 day".
 */
function inLargestUnit(s: number): [number, 'second' | 'minute' | 'hour' | 'day'] {
  if (Math.round(s / 3_600) >= 24) return [s / 86_400, 'day'];
  if (Math.round(s / 60) >= 60) return [s / 3_600, 'hour'];
  if (s >= 60) return [s / 60, 'minute'];
  return [s, 'second'];
}
