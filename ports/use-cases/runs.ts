import type { RunPrimitives } from '../../domain/runs/run.js';
import type { Principal } from '../../domain/principal.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { UseCase } from '../use-case.js';

/** A run as the wire shows it: its record without the prompt, input and lease, its owner by subject. */
export interface RunView extends Pick<
  RunPrimitives,
  'id' | 'automationId' | 'state' | 'startedBy' | 'cause' | 'createdAt' | 'startedAt' | 'endedAt' | 'stopRequestedAt' | 'ending' | 'error'
> {
  readonly owner: string;
}

/** `GET /runs/:id` adds what the agent said and did, as AI SDK UI messages. */
export interface RunDetail extends RunView {
  readonly messages: ReadonlyArray<UiMessage>;
}

export interface RunRef {
  readonly principal: Principal;
  readonly runId: string;
}

export interface RunUseCases {
  readonly listRuns: UseCase<
    { principal: Principal; automationId?: string; limit?: number; cursor?: string | null },
    { runs: ReadonlyArray<RunView>; nextCursor: string | null }
  >;
  readonly getRun: UseCase<RunRef, RunDetail>;
  readonly stopRun: UseCase<RunRef, RunView>;
}

/** `POST /tick`: the bearer is checked by the use case, in constant time. */
export interface TickUseCases {
  readonly tick: UseCase<{ bearer: string | null }, { runIds: ReadonlyArray<string> }>;
}
