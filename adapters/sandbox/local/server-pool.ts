import { Unavailable } from '../../../domain/errors.js';

/** How many app servers may run at once, and how long one may sit unused. */
export interface ServerLimits {
  /** Live servers in total. Default 20. */
  readonly maxServers: number;
  /** Live servers of one person (the apps' owner). Default 3. */
  readonly maxServersPerPerson: number;
  /** A server unused this long is stopped; the next request starts it again. Default 5 minutes. */
  readonly idleMs: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = { maxServers: 20, maxServersPerPerson: 3, idleMs: 5 * 60_000 };

/** One app's server, as the pool sees it. */
export interface PooledServer {
  /** Stops the server (keeping its files); the pool has already let go of it. */
  stopIdle(): Promise<void>;
}

/** Every server that may start is busy: none can be stopped to make room. */
export class ServerLimitReached extends Unavailable {
  constructor(limit: 'maxServers' | 'maxServersPerPerson', max: number) {
    const whose = limit === 'maxServers' ? 'on this host' : 'for one person';
    super(`At most ${max} app servers run at once ${whose}, and all of them are busy; try again in a moment`, {
      reason: 'server-limit',
      limit,
      max,
    });
  }
}

interface Entry {
  readonly owner: string;
  /** Requests in flight, plus one while the server starts. */
  busy: number;
  lastUsed: number;
  timer: NodeJS.Timeout | null;
}

/** Servers opened without an owner are counted together, under no person's share but the total's. */
const NOBODY = '\0';

/**
 * The live servers of one local sandbox. A server that would exceed a cap takes the place of the
 * least recently used idle one (that person's own for the per-person cap, anyone's for the total):
 * stopping an idle server costs its next visitor a restart, refusing a start would cost the person
 * who asked their app. Only when every candidate is busy is the start refused (503 `unavailable`).
 * A server unused for `idleMs` is stopped; its session starts it again on the next request.
 */
export class ServerPool {
  private readonly live = new Map<PooledServer, Entry>();

  constructor(private readonly limits: ServerLimits = DEFAULT_SERVER_LIMITS) {}

  /** Makes room for `server` (stopping idle ones if need be) and counts it as starting. */
  async admit(server: PooledServer, owner: string | undefined): Promise<void> {
    const person = owner ?? NOBODY;
    const known = this.live.get(server);
    if (known) return void known.busy++;
    for (;;) {
      const over = this.overLimit(person);
      if (!over) break;
      const victim = this.leastRecentlyUsedIdle(over === 'maxServers' ? null : person);
      if (!victim) throw new ServerLimitReached(over, this.limits[over]);
      this.forget(victim);
      await victim.stopIdle();
    }
    this.live.set(server, { owner: person, busy: 1, lastUsed: Date.now(), timer: null });
  }

  /** The server is up (or has just served a request): it becomes idle-reapable again. */
  settled(server: PooledServer): void {
    const entry = this.live.get(server);
    if (!entry) return;
    entry.busy = Math.max(0, entry.busy - 1);
    entry.lastUsed = Date.now();
    if (entry.busy === 0) this.armIdleTimer(server, entry);
  }

  /** Counts a request in flight; call the answer when it has been answered. */
  using(server: PooledServer): () => void {
    const entry = this.live.get(server);
    if (!entry) return () => undefined;
    entry.busy++;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    return () => this.settled(server);
  }

  /** The server stopped (or never started): its place is free. */
  forget(server: PooledServer): void {
    const entry = this.live.get(server);
    if (entry?.timer) clearTimeout(entry.timer);
    this.live.delete(server);
  }

  /** How many servers run, in total and for one person. */
  count(owner?: string): number {
    if (owner === undefined) return this.live.size;
    return [...this.live.values()].filter((entry) => entry.owner === owner).length;
  }

  private overLimit(person: string): 'maxServers' | 'maxServersPerPerson' | null {
    if (person !== NOBODY && this.count(person) >= this.limits.maxServersPerPerson) return 'maxServersPerPerson';
    if (this.live.size >= this.limits.maxServers) return 'maxServers';
    return null;
  }

  private leastRecentlyUsedIdle(owner: string | null): PooledServer | null {
    let chosen: { server: PooledServer; lastUsed: number } | null = null;
    for (const [server, entry] of this.live) {
      if (entry.busy > 0 || (owner !== null && entry.owner !== owner)) continue;
      if (!chosen || entry.lastUsed < chosen.lastUsed) chosen = { server, lastUsed: entry.lastUsed };
    }
    return chosen?.server ?? null;
  }

  private armIdleTimer(server: PooledServer, entry: Entry): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (this.live.get(server) !== entry || entry.busy > 0) return;
      this.forget(server);
      void server.stopIdle().catch(() => undefined);
    }, this.limits.idleMs);
    // Nothing waits on an idle server: the timer must not keep the host alive.
    entry.timer.unref();
  }
}
