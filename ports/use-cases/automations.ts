import type { AutomationPrimitives, Task, Trigger } from '../../domain/automations/automation.js';
import type { ConcurrencyPolicy, RetryPolicy } from '../../domain/automations/run-policy.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/**
 * An automation as the wire shows it: its retry and concurrency with defaults filled in, where its
 * completion webhooks go (never the secret), and `nextRunAt` for an armed schedule.
 */
export interface AutomationView extends Omit<AutomationPrimitives, 'owner' | 'retry' | 'concurrency' | 'notify'> {
  readonly owner: string;
  readonly retry: RetryPolicy;
  readonly concurrency: ConcurrencyPolicy;
  readonly notify: { readonly url: string; readonly setAt: string } | null;
  readonly nextRunAt?: string | null;
}

/** What creating or changing answers: the automation, and the endpoint secret the one time `notify` was set. */
export interface SavedAutomation extends AutomationView {
  /** The `whsec_` secret completion webhooks are signed with: shown here once, never again. */
  readonly notifySecret?: string;
}

/** Where completion webhooks go: set (a new secret is minted), or null to send none. */
export type NotifyRequest = { readonly url: string } | null;

export interface NewAutomation {
  readonly principal: Principal;
  readonly name: string;
  readonly trigger: Trigger;
  readonly task: Task;
  readonly retry?: RetryPolicy;
  readonly concurrency?: ConcurrencyPolicy;
  readonly notify?: NotifyRequest;
}

export interface AutomationChange {
  readonly principal: Principal;
  readonly automationId: string;
  readonly name?: string;
  readonly trigger?: Trigger;
  readonly task?: Task;
  readonly retry?: RetryPolicy;
  readonly concurrency?: ConcurrencyPolicy;
  readonly notify?: NotifyRequest;
}

export interface AutomationRef {
  readonly principal: Principal;
  readonly automationId: string;
}

/** What arming did: the automation, and the standing-grant asks now waiting in `/approvals`. */
export interface ArmResult {
  readonly automation: AutomationView;
  readonly asks: ReadonlyArray<{ readonly approvalId: string; readonly tool: string }>;
}

export interface AutomationUseCases {
  readonly createAutomation: UseCase<NewAutomation, SavedAutomation>;
  readonly listAutomations: UseCase<
    { principal: Principal; limit?: number; cursor?: string | null },
    { automations: ReadonlyArray<AutomationView>; nextCursor: string | null }
  >;
  readonly getAutomation: UseCase<AutomationRef, AutomationView>;
  readonly changeAutomation: UseCase<AutomationChange, SavedAutomation>;
  readonly deleteAutomation: UseCase<AutomationRef, void>;
  readonly armAutomation: UseCase<AutomationRef, ArmResult>;
  readonly disarmAutomation: UseCase<AutomationRef, AutomationView>;
}
