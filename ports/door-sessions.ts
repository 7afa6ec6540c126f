/** A live MCP session as the core sees it: whose it is, and how to end it. */
export interface LiveDoorSession {
  readonly id: string;
  readonly subject: string;
  readonly clientId: string | null;
  close(): Promise<void>;
}

/**
 * The door sessions live in this process, bound to the subject and client that opened them. The
 * transport opens and finds them; the core closes a subject's sessions when the host stops
 * resolving that subject.
 */
export interface DoorSessionRegistry<S extends LiveDoorSession = LiveDoorSession> {
  open(session: S): Promise<void>;
  /** The session when it exists and belongs to this subject and client; finding it keeps it alive. */
  find(id: string, subject: string, clientId: string | null): S | null;
  /** A session that ended on its own (the client's DELETE, a closed transport). */
  forget(id: string): void;
  /** Closes every live session of the subject; how many were closed. */
  revokeSubject(subject: string): Promise<number>;
  closeAll(): Promise<void>;
}
