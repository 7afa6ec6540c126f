import { ATTR, type Telemetry } from '../../ports/telemetry.js';
import { Tick, type TickDeps } from './tick.js';

/** A scheduler tick inside a `porter.tick` span, with how many runs it started. */
export class TracedTick extends Tick {
  constructor(
    private readonly telemetry: Telemetry,
    deps: TickDeps,
  ) {
    super(deps);
  }

  override execute(): Promise<{ runIds: string[]; nextSlotAt: Date | null }> {
    return this.telemetry.span('porter.tick', {}, async (span) => {
      const answer = await super.execute();
      span.set({ [ATTR.runsStarted]: answer.runIds.length });
      return answer;
    });
  }
}
