import type { Clock } from '../../ports/clock.js';
import type {
  DoorSessionOwner,
  DoorSessionPrimitives,
  DoorSessionRegistry,
  FoundDoorSession,
  LiveDoorSession,
  OpenedDoorSession,
} from '../../ports/door-sessions.js';
import { everyRecord, type RecordSet, type StoredRecord } from '../../ports/store.js';
import type { DoorSettings } from './door-settings.js';

/** Live forms one process keeps at most; the least recently used close first (their sessions stay stored). */
const MAX_LIVE = 1_000;
/** A live form unused this long closes here; its session stays stored and is rebuilt when next used. */
const LIVE_IDLE_MS = 5 * 60_000;
/** `lastSeenAt` is written at most this often per session, so a busy session is not a write per request. */
const MAX_TOUCH_MS = 60_000;

export interface DoorSessionsDeps {
  readonly records: RecordSet<DoorSessionPrimitives>;
  readonly settings: Pick<DoorSettings, 'maxSessionsPerSubject' | 'sessionIdleSeconds'>;
  readonly clock: Clock;
  /**
   * How long this process trusts a stored session it read, before reading it again (the door's
   * `door.sessionCacheMs`): a session ended on another instance answers 404 here within it. 0 reads
   * the store on every request.
   */
  readonly cacheMs?: number;
}

interface Live<S> {
  readonly session: S;
  usedAt: number;
  /** The stored session as last read here, and when. */
  stored?: { readonly record: DoorSessionPrimitives; readonly at: number };
}

/**
 * The door sessions, stored (`door-sessions`) so that every instance on the database serves every
 * session and a restart loses none. Each is bound to the subject and client that opened it: anyone
 * else presenting its id finds nothing. A session unused for `sessionIdleSeconds` is gone (found as
 * unknown, and swept); a subject holds at most `maxSessionsPerSubject`, and opening one more ends the
 * one used least recently, never the new one. This process also keeps the live form (the SDK's
 * transport and server) of the sessions it served lately; another instance rebuilds its own.
 */
export class DoorSessions<S extends LiveDoorSession = LiveDoorSession> implements DoorSessionRegistry<S> {
  private readonly live = new Map<string, Live<S>>();
  private lastSweep = 0;

  constructor(private readonly deps: DoorSessionsDeps) {}

  /** How many live forms this process holds. */
  get size(): number {
    return this.live.size;
  }

  async open(opened: OpenedDoorSession, live: S): Promise<void> {
    const clock = this.deps.clock.now();
    const now = clock.getTime();
    const at = clock.toISOString();
    const { id, ...session } = opened;
    await this.sweep(now);
    // Make room within the subject's bound: the sessions used least recently end, never this one.
    const theirs = (await everyRecord(this.deps.records, { subject: opened.subject }))
      .filter((record) => !this.idle(record.data, now))
      .sort((a, b) => Date.parse(a.data.lastSeenAt) - Date.parse(b.data.lastSeenAt));
    const excess = theirs.length - this.deps.settings.maxSessionsPerSubject + 1;
    for (const record of theirs.slice(0, Math.max(0, excess))) await this.end(record.id);
    const data = { ...session, openedAt: at, lastSeenAt: at };
    await this.deps.records.put({ id, data, refs: { subject: opened.subject } });
    this.keep(live, data);
  }

  find(id: string, subject: string, clientId: string | null): Promise<FoundDoorSession<S> | null> {
    return this.findFor(id, Promise.resolve({ subject, clientId }));
  }

  async findFor(id: string, owner: Promise<DoorSessionOwner | null>): Promise<FoundDoorSession<S> | null> {
    const now = this.now();
    const trusted = this.live.get(id);
    if (trusted?.stored && now - trusted.stored.at < (this.deps.cacheMs ?? 0)) {
      const { record } = trusted.stored;
      const who = await owner;
      if (!who || record.subject !== who.subject || record.clientId !== who.clientId) return null;
      trusted.usedAt = now;
      return { id, session: record, live: trusted.session };
    }
    // The store is read while the caller is still being admitted: one round trip's wait, not two.
    const [who, record] = await Promise.all([owner, this.deps.records.get(id)]);
    if (!who) return null;
    if (!record || this.idle(record.data, now)) {
      // Ended elsewhere (a DELETE on another instance, the subject's bound), or idle past its bound.
      if (record) await this.deps.records.delete(id);
      await this.closeLive(id);
      return null;
    }
    if (record.data.subject !== who.subject || record.data.clientId !== who.clientId) return null;
    const found = this.live.get(id);
    if (found) {
      found.usedAt = now;
      found.stored = { record: record.data, at: now };
    }
    await this.touch(record);
    return { id, session: record.data, live: found?.session ?? null };
  }

  keep(session: S, stored: DoorSessionPrimitives): void {
    const now = this.now();
    this.live.delete(session.id);
    // What was just written or read is trusted like a read: the next request need not read it again.
    this.live.set(session.id, { session, usedAt: now, stored: { record: stored, at: now } });
    if (this.live.size > MAX_LIVE) {
      // The least recently used that is not answering anything (a stream, a long call) closes here.
      for (const [id, entry] of this.live)
        if (!entry.session.busy && !entry.session.streaming) {
          void this.closeLive(id);
          break;
        }
    }
  }

  async end(id: string): Promise<void> {
    await this.deps.records.delete(id);
    await this.closeLive(id);
  }

  forget(id: string): void {
    this.live.delete(id);
  }

  async revokeSubject(subject: string): Promise<number> {
    const theirs = await everyRecord(this.deps.records, { subject });
    for (const record of theirs) await this.end(record.id);
    return theirs.length;
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.live.keys()]) await this.closeLive(id);
  }

  /**
   * Run every few seconds by the door: a live form with an open event stream whose session ended
   * on another instance (a DELETE there, the subject's bound) closes here, ending the stream; a
   * live form nobody used lately closes, its session staying stored.
   */
  async recheck(): Promise<void> {
    const now = this.now();
    for (const [id, entry] of [...this.live]) {
      if (entry.session.streaming) {
        const record = await this.deps.records.get(id);
        if (!record || this.idle(record.data, now)) await this.closeLive(id);
      } else if (!entry.session.busy && now - entry.usedAt > LIVE_IDLE_MS) await this.closeLive(id);
    }
  }

  private async closeLive(id: string): Promise<void> {
    const entry = this.live.get(id);
    if (!entry) return;
    this.live.delete(id);
    // A transport that fails to close is gone either way; the live form is already forgotten.
    await entry.session.close().catch(() => undefined);
  }

  private idle(session: DoorSessionPrimitives, now: number): boolean {
    return now - Date.parse(session.lastSeenAt) > this.deps.settings.sessionIdleSeconds * 1000;
  }

  /** Notes that the session was used, at most every so often; never brings back a session ended meanwhile. */
  private async touch(record: StoredRecord<DoorSessionPrimitives>): Promise<void> {
    const clock = this.deps.clock.now();
    const every = Math.min(MAX_TOUCH_MS, (this.deps.settings.sessionIdleSeconds * 1000) / 4);
    if (clock.getTime() - Date.parse(record.data.lastSeenAt) < every) return;
    const data = { ...record.data, lastSeenAt: clock.toISOString() };
    // Another request's touch may land first: either is as good.
    if (this.deps.records.atomic) await this.deps.records.atomic.compareAndSwap(record.id, record.revision, { data });
    else await this.deps.records.put({ id: record.id, data, refs: record.refs });
  }

  /** Removes the sessions nobody used within their bound, at most twice per bound, when a session opens. */
  private async sweep(now: number): Promise<void> {
    const bound = this.deps.settings.sessionIdleSeconds * 1000;
    if (now - this.lastSweep < bound / 2) return;
    this.lastSweep = now;
    for (const record of await everyRecord(this.deps.records)) if (this.idle(record.data, now)) await this.end(record.id);
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }
}
