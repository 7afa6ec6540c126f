/**
 * How the served page reads the loose values of an app's tree (props are strings, numbers,
 * booleans or null): the same reading the chrome's renderer gives them. Pure, so the page's
 * drawing and its tests agree on it.
 */

/** A prop as text: a string as is, a number written out, anything else nothing. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** A prop as a number: a number, or a string that is one (`"3"`); anything else nothing. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number'
    ? value
    : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
      ? Number(value)
      : undefined;
}

/** A prop as a list: a string split at `,` or `|`, each item trimmed, empty ones dropped. */
export function list(value: unknown): string[] {
  return typeof value === 'string'
    ? value
        .split(/[,|]/)
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/** A plain object (a record's data with fields), not an array and not null. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A grid's columns: the prop rounded, 2 by default, kept between 1 and 6. */
export function gridColumns(value: unknown): number {
  return Math.min(Math.max(Math.round(num(value) ?? 2), 1), 6);
}

/** A heading's level as the page draws it (its own title is the h1): level 1 is h2, down to h5. */
export function headingTag(value: unknown): 'h2' | 'h3' | 'h4' | 'h5' {
  const level = Math.min(Math.max(Math.round(num(value) ?? 1), 1), 4);
  return (['h2', 'h3', 'h4', 'h5'] as const)[level - 1]!;
}

/** The input types a field may take; any other is a text field. */
export function inputType(value: unknown): string {
  const kind = str(value);
  return kind && ['text', 'number', 'date', 'email', 'url', 'time', 'tel'].includes(kind) ? kind : 'text';
}

/** One bar of a chart: its label and value. */
export interface ChartPoint {
  readonly label: string;
  readonly value: number;
}

/** The bars a chart draws from its records: those whose `valueKey` is a number, labelled by `labelKey`. */
export function chartPoints(records: ReadonlyArray<{ data: unknown }>, valueKey: string, labelKey: string): ChartPoint[] {
  return records.flatMap((r) =>
    isObject(r.data) && typeof r.data[valueKey] === 'number' ? [{ label: String(r.data[labelKey] ?? ''), value: r.data[valueKey] }] : [],
  );
}

/** A table's columns: the ones it names, else the first record's first six fields. */
export function tableColumns(columns: unknown, records: ReadonlyArray<{ data: unknown }>): string[] {
  const named = list(columns);
  const first = records[0];
  return named.length > 0 ? named : first && isObject(first.data) ? Object.keys(first.data).slice(0, 6) : [];
}
