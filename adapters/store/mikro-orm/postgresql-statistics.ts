import type { Logger } from '../../../ports/logger.js';
import { Unavailable } from '../../../domain/errors.js';
import type { SqlRunner } from './sql-runner.js';

/** How often the store looks for tables of its own whose planner statistics have gone stale. */
export const STATISTICS_CHECK_MS = 10_000;

/**
 * Analyzes each of the store's tables (`porter_*` in the connection's schema) whose rows changed
 * by more than 50 + 10 % since it was last analyzed: autovacuum's own default rule, applied here
 * too because a server may run without autovacuum, or behind it while tables grow fast. Under a
 * transaction-level advisory lock, so of several instances one does it and the others skip.
 */
const ANALYZE_STALE = `do $porter$
declare stale record;
begin
  if not pg_try_advisory_xact_lock(hashtext('porter.statistics')) then return; end if;
  for stale in
    select schemaname, relname from pg_stat_user_tables
    where schemaname = current_schema() and relname like 'porter\\_%'
      and n_mod_since_analyze > 50 + 0.1 * greatest(n_live_tup, 0)
  loop
    execute format('analyze %I.%I', stale.schemaname, stale.relname);
  end loop;
end
$porter$`;

/**
 * Keeps the planner's statistics of the store's tables fresh. The store prepares its statements once
 * per connection, and PostgreSQL then reuses one generic plan for each; a plan made while the tables
 * were nearly empty (a new database) scans where an index would do, and stays until the tables
 * are analyzed again. Without autovacuum that is never, and the database's work a turn grew with
 * every turn (3.7 ms of CPU a turn at first, 15 ms 100 s later, in the turn mix). One statement
 * every `everyMs`; the first `everyMs` after the store opens.
 */
export class PostgresqlStatistics {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private warned = false;

  constructor(
    private readonly runner: SqlRunner,
    private readonly logger: Logger | undefined,
    private readonly everyMs: number = STATISTICS_CHECK_MS,
  ) {}

  start(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.analyzeStale().then(() => this.start());
    }, this.everyMs);
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Analyzes what has gone stale now; never rejects. A failure is said once, and the next check tries again. */
  async analyzeStale(): Promise<void> {
    try {
      await this.runner.changes({ sql: ANALYZE_STALE, params: [] });
    } catch (error) {
      // A database away for a while says so elsewhere; anything else (no privilege to analyze) once.
      if (error instanceof Unavailable || this.stopped || this.warned) return;
      this.warned = true;
      this.logger?.warn("Porter's tables could not be analyzed; their query plans may go stale as they grow unless autovacuum runs", {
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
