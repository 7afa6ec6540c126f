/**
 * A wait in words a person reads at a glance: "in 42 seconds", "in about 5 minutes", "in about 1
 * hour", in the given locale (Intl.RelativeTimeFormat), rounded to its largest unit. The exact
 * seconds stay where programs read them (`Retry-After`, `details.retryAfter`).
 */
export function waitInWords(seconds: number, locale: string | undefined = 'en'): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return format.format(s, 'second');
  const [value, unit] = s < 3_600 ? [s / 60, 'minute' as const] : s < 86_400 ? [s / 3_600, 'hour' as const] : [s / 86_400, 'day' as const];
  const rounded = Math.max(1, Math.round(value));
  const words = format.format(rounded, unit);
  // "about" only where rounding hid something, and only in English, whose phrase we know.
  return rounded !== value && /^en\b/i.test(format.resolvedOptions().locale) ? words.replace(/^in /, 'in about ') : words;
}
