import type { Run } from '../../domain/runs/run.js';
import type { RunView } from '../../ports/use-cases/runs.js';

export function runView(run: Run): RunView {
  const p = run.toPrimitives();
  return {
    id: p.id,
    automationId: p.automationId,
    state: p.state,
    owner: p.owner.subject,
    startedBy: p.startedBy,
    cause: p.cause,
    createdAt: p.createdAt,
    startedAt: p.startedAt,
    endedAt: p.endedAt,
    stopRequestedAt: p.stopRequestedAt,
    ending: p.ending,
    error: p.error,
  };
}
