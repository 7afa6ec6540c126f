import type { RunNowVenue, RunPrimitives } from '../../domain/runs/run.js';
import type { CompletionWebhookPrimitives } from '../../domain/runs/completion-webhook.js';
import type { Risk } from '../../domain/guard/risk.js';
import type { Principal } from '../../domain/principal.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { UseCase } from '../use-case.js';

/** A run as the wire shows it: its record without the prompt, input, lease and bookkeeping, its owner by subject. */
export interface RunView extends Pick<
  RunPrimitives,
  | 'id'
  | 'automationId'
  | 'state'
  | 'startedBy'
  | 'cause'
  | 'createdAt'
  | 'startedAt'
  | 'endedAt'
  | 'stopRequestedAt'
  | 'ending'
  | 'error'
  | 'dryRun'
  | 'attempts'
  | 'nextAttemptAt'
  | 'failedCalls'
> {
  readonly owner: string;
}

/** A call a dry run previewed instead of running. */
export interface PreviewedCall {
  readonly toolCallId: string;
  readonly tool: string;
  readonly risk: Risk;
  readonly egress: boolean;
  readonly preview: string;
}

/** A run's completion webhook and every attempt at delivering it (never its secret). */
export type WebhookDeliveryLog = Pick<
  CompletionWebhookPrimitives,
  'id' | 'url' | 'type' | 'state' | 'attempts' | 'nextAttemptAt' | 'createdAt'
>;

/** `GET /runs/:id` adds what the agent said and did, what a dry run previewed, and the completion webhook's log. */
export interface RunDetail extends RunView {
  readonly messages: ReadonlyArray<UiMessage>;
  /** In a dry run: each call that was previewed instead of run, in order. Empty otherwise. */
  readonly previews: ReadonlyArray<PreviewedCall>;
  /** The completion webhook (one per run), or null when the automation sends none or the run has not ended. */
  readonly webhook: WebhookDeliveryLog | null;
}

export interface RunRef {
  readonly principal: Principal;
  readonly runId: string;
}

/** A stop, answered once the run ended (or the wait ran out); `wait: false` answers once the stop is asked. */
export interface StopRequest extends RunRef {
  readonly wait?: boolean;
}

/** `POST /automations/:id/dry-run`: what the trigger would bring (a delivery's body), if anything. */
export interface DryRunRequest {
  readonly principal: Principal;
  readonly automationId: string;
  readonly input?: string;
}

/** A run of the caller's automation, now (`porter_automations_run`), asked for where they are. */
export interface RunNowRequest {
  readonly principal: Principal;
  readonly automationId: string;
  readonly venue: RunNowVenue;
  /** What the run is given after the task's prompt, as a delivery's body would be. */
  readonly input?: string;
}

export interface RunUseCases {
  readonly listRuns: UseCase<
    { principal: Principal; automationId?: string; limit?: number; cursor?: string | null },
    { runs: ReadonlyArray<RunView>; nextCursor: string | null }
  >;
  readonly getRun: UseCase<RunRef, RunDetail>;
  readonly stopRun: UseCase<StopRequest, RunView>;
  /** A new run of the same automation with the same prompt and input. */
  readonly rerunRun: UseCase<RunRef, RunView>;
  /** Runs the task now with every write, destructive and egress call previewed; answers once it ended. */
  readonly dryRunAutomation: UseCase<DryRunRequest, RunDetail>;
  /** A real run of the automation, now, queued behind runs in flight; answers the queued run. */
  readonly runAutomationNow: UseCase<RunNowRequest, RunView>;
}

/** `POST /tick`: the bearer is checked by the use case, in constant time. */
export interface TickUseCases {
  readonly tick: UseCase<{ bearer: string | null }, { runIds: ReadonlyArray<string> }>;
}
