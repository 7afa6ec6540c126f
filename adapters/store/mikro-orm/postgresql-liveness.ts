import { createHash } from 'node:crypto';
import type { Client } from 'pg';
import type { InstanceLiveness, LiveMarks } from '../../../ports/liveness.js';
import type { Logger } from '../../../ports/logger.js';
import { Unavailable } from '../../../domain/errors.js';
import type { SqlRunner } from './sql-runner.js';
import type { KnexClientLike } from './sql-runner.js';
import { HeldSessionCheck } from './held-session-check.js';

/** The first key of every liveness lock ("port" in ASCII): apart from the migration lock's single bigint key. */
export const LIVENESS_LOCK_CLASS = 0x706f7274;
/** How long to wait before taking the mark again after its connection was lost. */
const RETAKE_MS = 500;

const HOLD = 'select pg_try_advisory_lock($1::int, $2::int) as held';
// Two-int4 advisory locks show in pg_locks as classid, objid (both oids) with objsubid 2.
const HELD =
  "select objid::bigint as mark from pg_locks where locktype = 'advisory' and objsubid = 2 and granted " +
  'and classid::bigint = $1 and database = (select oid from pg_database where datname = current_database())';

/** The second key of a holder's lock: 32 bits of its name's SHA-256, signed as int4 takes it. */
export function markOf(holder: string): number {
  return createHash('sha256').update(holder).digest().readInt32BE(0);
}

/**
 * Liveness on PostgreSQL: this instance holds a session-level advisory lock (LIVENESS_LOCK_CLASS,
 * markOf(holder)) on a connection of its own for as long as it lives. The server releases it the
 * moment that session ends, a process killed with SIGKILL included (its socket closes), so any
 * instance reading pg_locks sees the mark gone. The connection is asked a trivial statement every
 * `checkEveryMs`; lost (an error, an end, no answer), listeners are told at once, since others may
 * now take what this instance holds, and the mark is taken again.
 */
export class PostgresqlLiveness implements InstanceLiveness {
  private connection: Client | null = null;
  private holder: string | null = null;
  private readonly listeners: Array<() => void> = [];
  private readonly check: HeldSessionCheck;
  private retake: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(
    private readonly client: KnexClientLike,
    private readonly runner: SqlRunner,
    checkEveryMs: number,
    private readonly logger: Logger | undefined,
  ) {
    this.check = new HeldSessionCheck(checkEveryMs);
  }

  get holding(): boolean {
    return this.connection !== null;
  }

  async hold(holder: string): Promise<void> {
    this.holder = holder;
    if (this.connection || this.closed) return;
    const connection = (await this.client.acquireRawConnection()) as Client;
    connection.on('error', (error: Error) => this.lost(connection, error));
    connection.on('end', () => this.lost(connection, null));
    try {
      const { rows } = await connection.query<{ held: boolean }>(HOLD, [LIVENESS_LOCK_CLASS, markOf(holder)]);
      if (!rows[0]?.held) throw new Unavailable(`Another session holds the liveness mark of ${holder}`);
    } catch (error) {
      await this.client.destroyRawConnection(connection).catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await this.client.destroyRawConnection(connection).catch(() => undefined);
      return;
    }
    this.connection = connection;
    this.check.start(
      connection,
      () => this.connection === connection,
      (error) => this.lost(connection, error),
    );
  }

  onLost(listener: () => void): void {
    this.listeners.push(listener);
  }

  async alive(): Promise<LiveMarks> {
    const rows = await this.runner.rows<{ mark: string | number }>({ sql: HELD, params: [LIVENESS_LOCK_CLASS] });
    // objid is unsigned; a mark is signed int4: compare both as unsigned.
    const keys = new Set(rows.map((row) => String(Number(row.mark) >>> 0)));
    return { keys, isAlive: (holder) => keys.has(String(markOf(holder) >>> 0)) };
  }

  async release(): Promise<void> {
    this.closed = true;
    this.check.stop();
    if (this.retake) clearTimeout(this.retake);
    const connection = this.connection;
    this.connection = null;
    // Ending the session releases the lock.
    if (connection) await this.client.destroyRawConnection(connection).catch(() => undefined);
  }

  private lost(connection: Client, error: Error | null): void {
    if (this.connection !== connection) return;
    this.connection = null;
    this.check.stop();
    if (this.closed) return;
    this.logger?.warn('this instance lost its liveness mark; its runs may be taken by others, taking it again', {
      cause: error?.message ?? 'ended',
    });
    void this.client.destroyRawConnection(connection).catch(() => undefined);
    for (const listener of this.listeners) listener();
    const again = () => {
      this.retake = null;
      if (this.closed || !this.holder) return;
      this.hold(this.holder).catch(() => {
        this.retake = setTimeout(again, RETAKE_MS);
        this.retake.unref?.();
      });
    };
    this.retake = setTimeout(again, RETAKE_MS);
    this.retake.unref?.();
  }
}
