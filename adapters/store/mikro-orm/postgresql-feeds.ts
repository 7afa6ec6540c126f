import type { Client, Notification } from 'pg';
import type { Clock } from '../../../ports/clock.js';
import type { FeedSet } from '../../../ports/feeds.js';
import { checkKey, checkNamespace, validKey } from '../shared/feed-names.js';
import { FeedWatchers } from '../shared/feed-watchers.js';
import type { Logger } from '../../../ports/logger.js';
import { Unavailable } from '../../../domain/errors.js';
import type { KnexClientLike, SqlRunner } from './sql-runner.js';
import { storeError } from './store-errors.js';
import { HeldSessionCheck } from './held-session-check.js';

/** The channel every feed's wake-ups travel on; the payload is `<namespace> <key>`. */
export const FEED_CHANNEL = 'porter_feeds';
/** How long to wait before listening again after the listening connection was lost. */
const RELISTEN_MS = 500;
/** How long closing waits for the server to answer the listening connection's goodbye. */
const GOODBYE_MS = 1_000;

const APPEND =
  'with appended as (insert into porter_feed_entries (namespace, "key", last_seq, first_seq, entries, created_at) ' +
  'values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning 1) ' +
  `select pg_notify('${FEED_CHANNEL}', $1::text || ' ' || $2::text) from appended`;
const SIGNAL = `select pg_notify('${FEED_CHANNEL}', $1::text || ' ' || $2::text)`;
const READ = 'select first_seq, entries from porter_feed_entries where namespace = $1 and "key" = $2 and last_seq >= $3 order by last_seq';
const DROP = 'delete from porter_feed_entries where namespace = $1 and "key" = any($2::text[])';
/**
 * How long a dropped key waits for others before its delete: every turn drops its feed once it is
 * over, and nothing waits on a drop but the memory it frees, so the instance's drops go together.
 */
const DROP_WINDOW_MS = 250;
const PRUNE = 'delete from porter_feed_entries where namespace = $1 and created_at < $2';

/**
 * Feeds on PostgreSQL: an append is one statement that inserts the entries as one row and, in the
 * same transaction, NOTIFYs `porter_feeds` with the namespace and key (never the entries: a
 * payload is bounded at 8000 bytes). One connection per store LISTENs, opened at the first watch
 * and kept until the store closes; a lost one is opened again and every watcher woken, since
 * notifications sent meanwhile are gone. A server that stops answering never says the connection
 * is lost, so the listener asks it a trivial statement every `checkEveryMs`: one left unanswered
 * past the store's deadline counts as lost too.
 */
export class PostgresqlFeeds {
  private readonly listener: FeedListener;

  constructor(
    private readonly runner: SqlRunner,
    client: KnexClientLike,
    private readonly clock: Clock,
    options: { readonly logger?: Logger; readonly checkEveryMs: number },
  ) {
    this.listener = new FeedListener(client, options.checkEveryMs, options.logger);
  }

  feeds<T>(namespace: string): FeedSet<T> {
    checkNamespace(namespace);
    const { runner, clock, listener } = this;
    const drops = new Batched<string>((keys) => runner.changes({ sql: DROP, params: [namespace, keys] }), DROP_WINDOW_MS);
    return {
      async append(key, from, entries) {
        checkKey(key);
        if (entries.length === 0) return;
        await runner.rows({
          sql: APPEND,
          params: [namespace, key, from + entries.length - 1, from, JSON.stringify(entries), clock.now().getTime()],
        });
      },
      async read(key, from) {
        if (!validKey(key)) return [];
        const rows = await runner.rows<{ first_seq: number; entries: T[] }>({ sql: READ, params: [namespace, key, from] });
        const read: T[] = [];
        for (const row of rows) {
          const entries = row.entries;
          for (let i = Math.max(0, from - row.first_seq); i < entries.length; i++) read.push(entries[i]!);
        }
        return read;
      },
      watch: (key, wake) => listener.watch(`${namespace} ${key}`, wake),
      async signal(key) {
        checkKey(key);
        await runner.rows({ sql: SIGNAL, params: [namespace, key] });
      },
      async drop(key) {
        if (validKey(key)) await drops.add(key);
      },
      async prune(before) {
        await runner.changes({ sql: PRUNE, params: [namespace, Date.parse(before)] });
      },
    };
  }

  close(): Promise<void> {
    return this.listener.close();
  }
}

/** Items added within one window, handed to `run` together; each add settles as that run does. */
class Batched<T> {
  private items: T[] = [];
  private done: Promise<void> | null = null;

  constructor(
    private readonly run: (items: T[]) => Promise<unknown>,
    private readonly windowMs: number,
  ) {}

  add(item: T): Promise<void> {
    this.items.push(item);
    this.done ??= new Promise<void>((resolve) => setTimeout(resolve, this.windowMs)).then(() => {
      const items = this.items;
      this.items = [];
      this.done = null;
      return this.run(items).then(() => undefined);
    });
    return this.done;
  }
}

/** The one listening connection of a store, and who waits on which `<namespace> <key>`. */
class FeedListener {
  private readonly watchers = new FeedWatchers();
  private connection: Client | null = null;
  private connecting: Promise<void> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private readonly check: HeldSessionCheck;
  private closed = false;

  constructor(
    private readonly client: KnexClientLike,
    checkEveryMs: number,
    private readonly logger: Logger | undefined,
  ) {
    this.check = new HeldSessionCheck(checkEveryMs);
  }

  async watch(channelKey: string, wake: () => void): Promise<() => void> {
    const unwatch = this.watchers.add(channelKey, wake);
    try {
      await this.listening();
    } catch (error) {
      unwatch();
      throw error;
    }
    return unwatch;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.check.stop();
    await this.connecting?.catch(() => undefined);
    const connection = this.connection;
    this.connection = null;
    if (connection) await this.goodbye(connection);
  }

  /**
   * Ends the listening connection politely, but a server that does not answer the goodbye
   * (suspended, or behind a black hole) does not keep the store from closing: after a moment the
   * socket is dropped.
   */
  private async goodbye(connection: Client): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), GOODBYE_MS)));
    const ended = this.client.destroyRawConnection(connection).then(
      () => 'ended' as const,
      () => 'ended' as const,
    );
    if ((await Promise.race([ended, late])) === 'late') connection.connection.stream.destroy();
    clearTimeout(timer);
  }

  private listening(): Promise<void> {
    if (this.closed) return Promise.reject(new Unavailable('The store is closed'));
    if (this.connection) return Promise.resolve();
    this.connecting ??= this.connect()
      .catch((error: unknown) => {
        // Not there (or gone): 503, as any statement would answer.
        throw storeError(error);
      })
      .finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const connection = (await this.client.acquireRawConnection()) as Client;
    connection.on('notification', (message: Notification) => this.deliver(message.payload ?? ''));
    connection.on('error', (error: Error) => this.lost(connection, error));
    connection.on('end', () => this.lost(connection, null));
    try {
      await connection.query(`LISTEN ${FEED_CHANNEL}`);
    } catch (error) {
      await this.client.destroyRawConnection(connection).catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await this.client.destroyRawConnection(connection).catch(() => undefined);
      throw new Unavailable('The store is closed');
    }
    this.connection = connection;
    this.check.start(
      connection,
      () => this.connection === connection,
      (error) => this.lost(connection, error),
    );
  }

  private deliver(payload: string): void {
    for (const wake of this.watchers.of(payload)) wake();
  }

  /** The listening connection went away: listen again while anyone watches, and wake them all. */
  private lost(connection: Client, error: Error | null): void {
    if (this.connection !== connection) return;
    this.connection = null;
    this.check.stop();
    if (this.closed) return;
    this.logger?.warn('the feed listener lost its connection; listening again', { cause: error?.message ?? 'ended' });
    void this.client.destroyRawConnection(connection).catch(() => undefined);
    const again = () => {
      this.retry = null;
      if (this.closed || this.watchers.empty) return;
      this.listening().then(
        () => this.wakeEveryone(),
        () => {
          this.retry = setTimeout(again, RELISTEN_MS);
          this.retry.unref?.();
        },
      );
    };
    this.retry = setTimeout(again, RELISTEN_MS);
    this.retry.unref?.();
  }

  private wakeEveryone(): void {
    for (const wake of this.watchers.all()) wake();
  }
}
