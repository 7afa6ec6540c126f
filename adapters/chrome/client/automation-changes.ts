import type { Automation } from './automation-shapes.js';
import { defined } from '../../../domain/defined.js';

/** What the automation form holds when it is sent. */
export interface AutomationFields {
  readonly name: string;
  readonly kind: 'schedule' | 'webhook';
  readonly cron: string;
  readonly timezone: string;
  readonly source: string;
  readonly prompt: string;
  readonly tools: ReadonlySet<string>;
  readonly retries: string;
  readonly whenBusy: string;
  readonly notifyUrl: string;
}

/** The form as `POST /automations` takes it: one at a time, queueing (or skipping) the rest; a webhook only with a URL. */
export function automationBody(fields: AutomationFields): Record<string, unknown> & { notify?: unknown } {
  const { kind } = fields;
  return {
    name: fields.name,
    trigger: kind === 'schedule' ? { kind, cron: fields.cron.trim(), timezone: fields.timezone } : { kind, source: fields.source },
    task: { prompt: fields.prompt, ...defined({ tools: fields.tools.size ? [...fields.tools] : undefined }) },
    retry: { max: Number(fields.retries) },
    concurrency: { limit: 1, whenBusy: fields.whenBusy === 'skip' ? 'skip' : 'queue' },
    ...defined({ notify: fields.notifyUrl ? { url: fields.notifyUrl } : undefined }),
  };
}

/**
 * What an edit changes: only the fields that differ, as `PATCH /automations/:id` takes them (so an
 * armed automation's name, retries or webhook change without disarming, and a completion-webhook
 * secret is minted again only when its URL changed).
 */
export function changesOf(
  existing: Automation,
  body: Record<string, unknown> & { notify?: unknown },
  notifyUrl: string,
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const before: Record<string, unknown> = {
    name: existing.name,
    trigger:
      existing.trigger.kind === 'schedule' ? { ...existing.trigger, timezone: existing.trigger.timezone ?? 'UTC' } : existing.trigger,
    task: { prompt: existing.task.prompt, ...defined({ tools: existing.task.tools?.length ? existing.task.tools : undefined }) },
    retry: { max: existing.retry?.max ?? 2 },
    concurrency: { limit: 1, whenBusy: existing.concurrency?.whenBusy === 'skip' ? 'skip' : 'queue' },
  };
  for (const key of ['name', 'trigger', 'task', 'retry', 'concurrency'] as const) {
    if (JSON.stringify(canonical(body[key])) !== JSON.stringify(canonical(before[key]))) changes[key] = body[key];
  }
  // The existing limit is kept: the form does not offer one.
  if (changes.concurrency && existing.concurrency)
    changes.concurrency = { ...(changes.concurrency as object), limit: existing.concurrency.limit };
  if (changes.retry) changes.retry = { ...(existing.retry ?? {}), ...(changes.retry as object) };
  if (notifyUrl !== (existing.notify?.url ?? '')) changes.notify = notifyUrl ? { url: notifyUrl } : null;
  return changes;
}

/** The same value with its keys in order, so two equal objects compare equal as JSON. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, canonical(v)]),
    );
  return value;
}
