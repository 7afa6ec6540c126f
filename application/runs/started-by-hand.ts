import type { Principal } from '../../domain/principal.js';
import type { Run } from '../../domain/runs/run.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { AutomationBook } from '../automations/automation-book.js';
import type { RunBook } from './run-book.js';
import type { UsageMeter } from '../usage/usage-meter.js';

/**
 * What starting a run by hand takes: its automation, the id and time it is made with, where it is
 * kept and audited, and the person's budgets (`NoUsageMeter`: nothing metered).
 */
export interface HandStartDeps {
  readonly automations: AutomationBook;
  readonly runs: RunBook;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly meter: UsageMeter;
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

/**
 * A person asks for a run: refused (429) before anything is kept when their `runs` or `tokens`
 * budget has nothing left. A dry run pays its `runs` unit here (it runs now or is handed straight
 * over, never retried, and the executor does not charge one); a real run is charged by the
 * executor when it first begins, like every run, so here it is only checked.
 */
export async function payForHandStart(deps: HandStartDeps, by: Principal, dryRun: boolean): Promise<void> {
  await deps.meter.ensureLeft(by, 'tokens');
  if (dryRun) await deps.meter.charge(by, 'runs');
  else await deps.meter.ensureLeft(by, 'runs');
}
