import type { Clock } from '../../ports/clock.js';
import type { DoorSessionRegistry, LiveDoorSession } from '../../ports/door-sessions.js';
import type { DoorSettings } from './door-settings.js';

interface Entry<S> {
  readonly session: S;
  lastSeen: number;
}

/**
 * The door sessions live in this process (one MCP session each). Sessions are bound to the subject
 * and client that opened them; a subject the host no longer resolves has all of theirs closed.
 * Abandoned sessions are swept when a new one opens, and one subject holds a bounded number.
 */
export class DoorSessions<S extends LiveDoorSession = LiveDoorSession> implements DoorSessionRegistry<S> {
  private readonly entries = new Map<string, Entry<S>>();

  constructor(
    private readonly settings: Pick<DoorSettings, 'maxSessionsPerSubject' | 'sessionIdleSeconds'>,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async open(session: S): Promise<void> {
    const now = this.clock.now().getTime();
    const idle = this.settings.sessionIdleSeconds * 1000;
    for (const entry of [...this.entries.values()]) if (now - entry.lastSeen > idle) await this.end(entry.session.id);
    const own = [...this.entries.values()]
      .filter((entry) => entry.session.subject === session.subject)
      .sort((a, b) => a.lastSeen - b.lastSeen);
    for (const entry of own.slice(0, Math.max(0, own.length - this.settings.maxSessionsPerSubject + 1))) await this.end(entry.session.id);
    this.entries.set(session.id, { session, lastSeen: now });
  }

  find(id: string, subject: string, clientId: string | null): S | null {
    const entry = this.entries.get(id);
    if (!entry || entry.session.subject !== subject || entry.session.clientId !== clientId) return null;
    entry.lastSeen = this.clock.now().getTime();
    return entry.session;
  }

  forget(id: string): void {
    this.entries.delete(id);
  }

  async revokeSubject(subject: string): Promise<number> {
    const theirs = [...this.entries.values()].filter((entry) => entry.session.subject === subject);
    for (const entry of theirs) await this.end(entry.session.id);
    return theirs.length;
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.entries.keys()]) await this.end(id);
  }

  private async end(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    // A transport that fails to close is gone either way; the session is already forgotten.
    await entry.session.close().catch(() => undefined);
  }
}
