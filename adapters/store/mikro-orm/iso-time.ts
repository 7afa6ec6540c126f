const DAY_MS = 86_400_000;
/** 9999-12-31T23:59:59.999Z: past it (or before 1970) Date's own formatting takes over. */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_799_999;

let cachedDay = Number.NaN;
let cachedDayPrefix = '';

/**
 * Epoch milliseconds as `Date#toISOString()` writes them, faster: a page of records formats two
 * instants per row, and most share their day, so the date part is kept from the previous call and
 * only the time of day is composed.
 */
export function isoFromMillis(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > LAST_FOUR_DIGIT_YEAR_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDayPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${cachedDayPrefix}${two(hours)}:${two(minutes)}:${two(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}
