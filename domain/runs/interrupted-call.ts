import { DomainError } from '../errors.js';
import type { Risk } from '../guard/risk.js';

/** What a tool declares that tells whether a call of it may run twice. */
export interface RerunSource {
  readonly risk: Risk;
  /** Declared by the tool: running it twice with the same input does no more than once. */
  readonly idempotent?: boolean;
  readonly readOnly?: boolean;
  readonly resolveRisk?: unknown;
}

/**
 * Whether a run's call that was cut short (its instance died after the call started and before
 * its result was recorded: it may or may not have run) may simply run again on the next attempt:
 * a tool that declares `idempotent`, else one that changes nothing (a `read` tool that does not
 * say it writes and whose risk cannot rise at call time). `idempotent: false` says never.
 */
export function runsAgainAfterInterruption(tool: RerunSource): boolean {
  return tool.idempotent ?? (tool.risk === 'read' && (tool.readOnly ?? typeof tool.resolveRisk !== 'function'));
}

/**
 * A run cannot go on: a call of a tool that may not run twice was cut short by its instance's
 * death, so nobody knows whether it ran. The run ends failed saying so, rather than guess.
 */
export class RunCannotResume extends DomainError {
  constructor(readonly tool: string) {
    super(
      'conflict',
      `The run cannot resume: ${tool} was running when the instance executing this run stopped, so it may or may not have run, and it is not safe to run twice`,
      { reason: 'cannot-resume', tool },
    );
  }
}
