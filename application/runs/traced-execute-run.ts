import { ATTR, type Telemetry } from '../../ports/telemetry.js';
import { ExecuteRun, type ExecuteRunDeps } from './execute-run.js';

/** A run's execution inside a `porter.run` span: its turn, model steps and tool calls nest under it. */
export class TracedExecuteRun extends ExecuteRun {
  constructor(
    private readonly telemetry: Telemetry,
    deps: ExecuteRunDeps,
  ) {
    super(deps);
  }

  override execute(runId: string): Promise<void> {
    return this.telemetry.span('porter.run', { [ATTR.runId]: runId }, () => super.execute(runId));
  }
}
