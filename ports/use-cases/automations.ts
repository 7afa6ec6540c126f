import type { AutomationPrimitives, Task, Trigger } from '../../domain/automations/automation.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/** An automation as the wire shows it; `nextRunAt` for an armed schedule. */
export interface AutomationView extends Omit<AutomationPrimitives, 'owner'> {
  readonly owner: string;
  readonly nextRunAt?: string | null;
}

export interface NewAutomation {
  readonly principal: Principal;
  readonly name: string;
  readonly trigger: Trigger;
  readonly task: Task;
}

export interface AutomationChange {
  readonly principal: Principal;
  readonly automationId: string;
  readonly name?: string;
  readonly trigger?: Trigger;
  readonly task?: Task;
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
  readonly createAutomation: UseCase<NewAutomation, AutomationView>;
  readonly listAutomations: UseCase<
    { principal: Principal; limit?: number; cursor?: string | null },
    { automations: ReadonlyArray<AutomationView>; nextCursor: string | null }
  >;
  readonly getAutomation: UseCase<AutomationRef, AutomationView>;
  readonly changeAutomation: UseCase<AutomationChange, AutomationView>;
  readonly deleteAutomation: UseCase<AutomationRef, void>;
  readonly armAutomation: UseCase<AutomationRef, ArmResult>;
  readonly disarmAutomation: UseCase<AutomationRef, AutomationView>;
}
