import type { ConnectionStatus } from '../../domain/connections/connection.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/** `GET /connections/:id`, polled by the client until the status settles. */
export interface ConnectionView {
  readonly id: string;
  readonly toolkit: string;
  readonly status: ConnectionStatus;
}

export interface Initiation {
  readonly principal: Principal;
  readonly toolkit: string;
  /** The host's own page the broker sends the person back to. */
  readonly callbackUrl: string;
}

export interface ConnectionList {
  readonly connections: ReadonlyArray<ConnectionView>;
  readonly nextCursor: string | null;
}

/** `GET /connections/toolkits`: what the broker can connect, by name. */
export interface ToolkitList {
  readonly toolkits: ReadonlyArray<{ readonly toolkit: string; readonly name: string }>;
}

export interface ConnectionsUseCases {
  readonly toolkits: UseCase<{ principal: Principal }, ToolkitList>;
  readonly initiate: UseCase<Initiation, { id: string; redirectUrl: string }>;
  readonly get: UseCase<{ principal: Principal; connectionId: string }, ConnectionView>;
  readonly list: UseCase<{ principal: Principal; limit?: number; cursor?: string | null }, ConnectionList>;
  readonly remove: UseCase<{ principal: Principal; connectionId: string }, void>;
}
