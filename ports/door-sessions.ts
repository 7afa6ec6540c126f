/**
 * What a door session keeps in the store, so that any instance on the same database serves it,
 * across restarts: whose it is (subject and client), what the client said when it initialized
 * (replayed to rebuild the session on another instance), and when it was last used.
 */
export interface DoorSessionPrimitives {
  readonly subject: string;
  readonly clientId: string | null;
  /** The `initialize` request's params as the client sent them: protocol version, capabilities, client info. */
  readonly initialize: DoorSessionInitialize;
  readonly openedAt: string;
  readonly lastSeenAt: string;
}

export interface DoorSessionInitialize {
  readonly protocolVersion: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly clientInfo: Readonly<Record<string, unknown>>;
}

/** Whom a session is bound to: the subject and client of the token that opened it. */
export interface DoorSessionOwner {
  readonly subject: string;
  readonly clientId: string | null;
}

/** A door session opened here: its stored record, and what runs it in this process. */
export interface OpenedDoorSession extends Omit<DoorSessionPrimitives, 'openedAt' | 'lastSeenAt'> {
  readonly id: string;
}

/** A session as it runs in one process (the SDK transport and server); rebuilt from the store elsewhere. */
export interface LiveDoorSession {
  readonly id: string;
  /** True while a server-to-client event stream is open on it here. */
  readonly streaming: boolean;
  /** True while a request is being answered on it here (a long tool call): it is not closed for being idle. */
  readonly busy?: boolean;
  close(): Promise<void>;
}

/** A stored session found for its owner, and its live form in this process when there is one. */
export interface FoundDoorSession<S extends LiveDoorSession> {
  readonly id: string;
  readonly session: DoorSessionPrimitives;
  readonly live: S | null;
}

/**
 * The door sessions, kept in the store and bound to the subject and client that opened them: any
 * instance finds any session, a restart keeps them, and each process keeps the live form of the
 * sessions it served lately. The core ends a subject's sessions when the host stops resolving them.
 */
export interface DoorSessionRegistry<S extends LiveDoorSession = LiveDoorSession> {
  /** Stores a new session (making room within its subject's bound) and keeps its live form here. */
  open(session: OpenedDoorSession, live: S): Promise<void>;
  /** The session when it exists, is not idle past its bound, and belongs to this subject and client; finding it keeps it alive. */
  find(id: string, subject: string, clientId: string | null): Promise<FoundDoorSession<S> | null>;
  /** `find` for an owner still being established (the bearer being verified): the store is read meanwhile. Null owner: nothing found. */
  findFor(id: string, owner: Promise<DoorSessionOwner | null>): Promise<FoundDoorSession<S> | null>;
  /** Keeps the live form of a stored session this process rebuilt from `stored`, as just read (trusted like a read). */
  keep(live: S, stored: DoorSessionPrimitives): void;
  /** Ends a session everywhere (the client's DELETE): its record goes, and its live form here closes. */
  end(id: string): Promise<void>;
  /** A live form that closed here on its own; the stored session stays. */
  forget(id: string): void;
  /** Ends every session of the subject, everywhere; how many were ended. */
  revokeSubject(subject: string): Promise<number>;
  /** Closes every live form in this process (Porter closing); the stored sessions stay for the next. */
  closeAll(): Promise<void>;
}
