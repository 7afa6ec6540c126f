/** What the chrome's renderer and a served app's page both draw and read an app's tree with. */
export interface AppPageKit {
  /** One value, as a table cell shows it. */
  cell(value: unknown): string;
  /** A whole record on one line: its title, text, name or label, else its fields. */
  summary(data: unknown): string;
  /** The named fields under `scope` as a record: checkboxes as booleans, number inputs as numbers. */
  gatherFields(scope: Element): Record<string, unknown>;
  /** Empties the named fields under `scope` (checkboxes back to their default) once their record is sent. */
  clearFields(scope: Element): void;
}

/**
 * The one kit, so an app reads and fills in alike in the chrome and once graduated to its own
 * server. The chrome imports it, and the served page's bundle (adapters/apps/served-page-script.ts) does too.
 */
export function appPageKit(): AppPageKit {
  type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  const fieldsIn = (scope: Element) => Array.from(scope.querySelectorAll<Field>('input[name], textarea[name], select[name]'));
  const cell = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'boolean') return value ? '✓' : '—';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  return {
    cell,
    summary(data) {
      if (typeof data === 'string' || typeof data === 'number' || typeof data === 'boolean') return String(data);
      if (typeof data !== 'object' || data === null || Array.isArray(data)) return '';
      const fields = data as Record<string, unknown>;
      for (const key of ['title', 'text', 'name', 'label']) {
        const title = fields[key];
        if (typeof title === 'string' && title) return title;
      }
      return Object.entries(fields)
        .map(([key, value]) => `${key}: ${cell(value)}`)
        .join(' · ');
    },
    gatherFields(scope) {
      const record: Record<string, unknown> = {};
      for (const field of fieldsIn(scope)) {
        if (field instanceof HTMLInputElement && field.type === 'checkbox') record[field.name] = field.checked;
        else if (field instanceof HTMLInputElement && field.type === 'number')
          record[field.name] = field.value === '' ? null : Number(field.value);
        else if (field.value !== '') record[field.name] = field.value;
      }
      return record;
    },
    clearFields(scope) {
      for (const field of fieldsIn(scope)) {
        if (field instanceof HTMLInputElement && field.type === 'checkbox') field.checked = field.defaultChecked;
        else if (!(field instanceof HTMLSelectElement)) field.value = '';
      }
    },
  };
}
