import type { RunDispatcher } from '../../ports/scheduler.js';
import type { ParkedApprovals } from './parked-approvals.js';
import type { RunBook } from './run-book.js';

/** A waiting run goes back to the queue once none of its calls waits for an answer any more. */
export class ResumeRun {
  constructor(
    private readonly runs: RunBook,
    private readonly parked: ParkedApprovals,
    private readonly dispatcher: RunDispatcher,
  ) {}

  async ifAnswered(runId: string): Promise<boolean> {
    if (await this.parked.awaitingAnswer(runId)) return false;
    const requeued = await this.runs.update(runId, (run) => run.requeue());
    if (!requeued) return false;
    await this.dispatcher.dispatch([runId]);
    return true;
  }
}
