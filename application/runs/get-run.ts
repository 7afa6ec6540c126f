import type { UseCase } from '../../ports/use-case.js';
import type { RunDetail, RunRef } from '../../ports/use-cases/runs.js';
import type { RunBook } from './run-book.js';
import { runView } from './run-view.js';

/** `GET /runs/:id`: the run and its transcript. */
export class GetRun implements UseCase<RunRef, RunDetail> {
  constructor(private readonly runs: RunBook) {}

  async execute(input: RunRef): Promise<RunDetail> {
    const { run } = await this.runs.ownedBy(input.principal.subject, input.runId);
    return { ...runView(run), messages: await this.runs.messagesOf(run.id) };
  }
}
