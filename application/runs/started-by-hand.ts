import type { Principal } from '../../domain/principal.js';
import type { Run } from '../../domain/runs/run.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { AutomationBook } from '../automations/automation-book.js';
import type { RunBook } from './run-book.js';

/** What starting a run by hand takes: its automation, the id and time it is made with, where it is kept and audited. */
export interface HandStartDeps {
  readonly automations: AutomationBook;
  readonly runs: RunBook;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

/** How the start is audited: the run and its automation are always named; `details` adds to them. */
export interface HandStart {
  readonly action: string;
  readonly outcome: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * Keeps a run a person started by hand (a rerun, a dry run) and audits that they started it, before
 * it is dispatched or executed: a run that exists was always audited.
 */
export async function keepStartedByHand(deps: HandStartDeps, by: Principal, run: Run, start: HandStart): Promise<void> {
  await deps.runs.save(run);
  await deps.audit.record({
    subject: by.subject,
    action: start.action,
    outcome: start.outcome,
    details: { runId: run.id, ...start.details, automationId: run.automationId },
  });
}
