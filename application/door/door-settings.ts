/** Lifetimes and bounds of the door's authorization server and sessions. */
export interface DoorSettings {
  readonly accessTokenTtlSeconds: number;
  /** Absolute lifetime of a token family: rotation never extends it. */
  readonly refreshTokenTtlSeconds: number;
  /**
   * How long after a rotation the refresh token just rotated out still gets tokens, up to
   * FORGIVEN_REPLAYS times, when its own client presents it again (requests racing the rotation are
   * all answered); 0 turns it off.
   */
  readonly refreshGraceSeconds: number;
  readonly codeTtlSeconds: number;
  /** How long a consent page stays answerable. */
  readonly consentTtlSeconds: number;
  /** Stored MCP sessions one subject may hold (on every instance together); opening one more ends the least recently used. */
  readonly maxSessionsPerSubject: number;
  /** A session nobody used for this long is gone: found as unknown (404), and swept when a session opens. */
  readonly sessionIdleSeconds: number;
}

export const DEFAULT_DOOR_SETTINGS: DoorSettings = {
  accessTokenTtlSeconds: 3600,
  refreshTokenTtlSeconds: 30 * 24 * 3600,
  refreshGraceSeconds: 10,
  codeTtlSeconds: 60,
  consentTtlSeconds: 600,
  maxSessionsPerSubject: 16,
  sessionIdleSeconds: 1800,
};
