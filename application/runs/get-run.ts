import type { UseCase } from '../../ports/use-case.js';
import type { RunDetail, RunRef } from '../../ports/use-cases/runs.js';
import type { CompletionWebhookBook } from './completion-webhook-book.js';
import { dryRunPreviews } from './dry-run-previews.js';
import type { RunBook } from './run-book.js';
import { runView, webhookLogView } from './run-view.js';

/** `GET /runs/:id`: the run, its attempts and transcript, what a dry run previewed, and its completion webhook's log. */
export class GetRun implements UseCase<RunRef, RunDetail> {
  constructor(
    private readonly runs: RunBook,
    private readonly webhooks: CompletionWebhookBook,
  ) {}

  async execute(input: RunRef): Promise<RunDetail> {
    const { run } = await this.runs.ownedBy(input.principal.subject, input.runId);
    const messages = await this.runs.messagesOf(run.id);
    const [webhook] = await this.webhooks.ofRun(run.id);
    return {
      ...runView(run),
      messages,
      previews: run.dryRun ? dryRunPreviews(messages) : [],
      webhook: webhook ? webhookLogView(webhook) : null,
    };
  }
}
