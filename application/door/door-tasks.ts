import { NotFound } from '../../domain/errors.js';
import { TERMINAL_RUN_STATES } from '../../domain/runs/run.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { UseCase } from '../../ports/use-case.js';
import type { DoorTask, DoorTaskRef } from '../../ports/use-cases/door.js';
import type { RunUseCases, RunView } from '../../ports/use-cases/runs.js';
import { summaryOf } from '../runs/run-summary.js';

/** A run id as Ids mints it; anything else is no task, answered without reading the store. */
const RUN_ID = /^run_[0-9A-Za-z_-]{10,64}$/;

/**
 * `tasks/get` through the door: the caller's run that they started through the door, read from
 * the store (any instance answers, whichever one runs it). Someone else's run, a run started any
 * other way, an unknown id and a deployment without automations are all no task.
 */
export class GetDoorTask implements UseCase<DoorTaskRef, DoorTask | null> {
  /** `runs` null: automations are off, so no run was ever started through the door. */
  constructor(private readonly runs: RunUseCases | null) {}

  async execute(ref: DoorTaskRef): Promise<DoorTask | null> {
    if (!this.runs || !RUN_ID.test(ref.taskId)) return null;
    const detail = await ownRun(() => this.runs!.getRun.execute({ principal: ref.caller.principal, runId: ref.taskId }));
    return detail && startedThroughDoor(detail) ? doorTaskOf(detail, detail.messages) : null;
  }
}

/**
 * `tasks/cancel` through the door: stops the caller's run as `POST /runs/:id/stop` does
 * (cooperative, reaching the instance that executes it), answering once the stop is asked: a run
 * nobody executes is cancelled at once, a running one when its executor finishes its step. A run
 * that already ended is left as it is.
 */
export class CancelDoorTask implements UseCase<DoorTaskRef, DoorTask | null> {
  constructor(
    private readonly get: GetDoorTask,
    private readonly runs: RunUseCases | null,
  ) {}

  async execute(ref: DoorTaskRef): Promise<DoorTask | null> {
    const task = await this.get.execute(ref);
    if (!task || !this.runs || TERMINAL_RUN_STATES.has(task.state)) return task;
    // Acknowledged once asked (the extension's cancel is eventually consistent): the client polls the end.
    const stopped = await ownRun(() => this.runs!.stopRun.execute({ principal: ref.caller.principal, runId: ref.taskId, wait: false }));
    return stopped ? doorTaskOf(stopped, []) : null;
  }
}

/** A run as its task: its summary only once it ended. */
export function doorTaskOf(run: RunView, messages: ReadonlyArray<UiMessage>): DoorTask {
  const moments = [
    run.createdAt,
    run.startedAt,
    run.stopRequestedAt,
    run.endedAt,
    ...run.attempts.flatMap((a) => [a.startedAt, a.endedAt]),
  ];
  return {
    taskId: run.id,
    automationId: run.automationId,
    state: run.state,
    createdAt: run.createdAt,
    // ISO instants in UTC sort as strings.
    lastUpdatedAt:
      moments
        .filter((at): at is string => at !== null)
        .sort()
        .at(-1) ?? run.createdAt,
    summary: TERMINAL_RUN_STATES.has(run.state) ? summaryOf(run.state, run.error, messages) : null,
  };
}

function startedThroughDoor(run: RunView): boolean {
  return run.cause.kind === 'run-now' && run.cause.venue === 'mcp';
}

/** The caller's run, or null where the books say it is not theirs (or not there). */
async function ownRun<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
}
