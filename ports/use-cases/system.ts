import type { AuditEvent } from '../../domain/audit-event.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/** `GET /status` blocks: exactly these keys. */
export interface StatusBlocks {
  readonly store: 'memory' | 'sqlite' | 'postgresql';
  readonly agent: boolean;
  readonly actions: boolean;
  readonly guard: boolean;
  readonly apps: boolean;
  readonly automations: boolean;
  readonly sandbox: 'e2b' | 'cloud' | 'custom' | false;
  readonly model: 'custom' | 'ladder';
  readonly mcp: 'local' | 'broker' | false;
  readonly connections: 'byo' | 'cloud' | false;
}

export interface StatusReport {
  readonly version: string;
  readonly blocks: StatusBlocks;
}

export interface ActivityQuery {
  readonly principal: Principal;
  readonly limit?: number;
  readonly cursor?: string | null;
}

export interface ActivityPage {
  readonly events: ReadonlyArray<AuditEvent>;
  readonly nextCursor: string | null;
}

export interface SystemUseCases {
  readonly getStatus: UseCase<void, StatusReport>;
  readonly listActivity: UseCase<ActivityQuery, ActivityPage>;
}
