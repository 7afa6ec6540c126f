import { token } from '../tokens.js';
import type { Container } from 'inversify';
import type { DoorRoutes } from './door-routes.js';
import type { DoorSettings } from '../../application/door/door-settings.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { DoorStores } from '../containers/door.js';
import type { DoorSessions } from '../../application/door/door-sessions.js';
import type { TransportSession } from '../../adapters/mcp/mcp-door-transport.js';
import type { DoorBearerVerifier } from '../../ports/door-bearer-verifier.js';
import type { DoorPrincipalLookup } from '../../ports/door-principals.js';
import type { DoorOAuthUseCases, DoorTransportUseCases } from '../../ports/use-cases/door.js';

/** The MCP door: door-module.ts binds its container and routes, containers/door.ts the rest (in the door's child container). */
export const DOOR_TOKENS = {
  /** The MCP door's child container (bound only with `mcp: true`). */
  DoorContainer: token<Container>('DoorContainer'),
  DoorRoutes: token<DoorRoutes>('DoorRoutes'),
  DoorSettings: token<DoorSettings>('DoorSettings'),
  DoorSecrets: token<DoorSecrets>('DoorSecrets'),
  DoorStores: token<DoorStores>('DoorStores'),
  DoorSessions: token<DoorSessions<TransportSession>>('DoorSessions'),
  DoorBearerVerifier: token<DoorBearerVerifier>('DoorBearerVerifier'),
  DoorPrincipals: token<DoorPrincipalLookup>('DoorPrincipals'),
  DoorOAuthUseCases: token<DoorOAuthUseCases>('DoorOAuthUseCases'),
  DoorTransportUseCases: token<DoorTransportUseCases>('DoorTransportUseCases'),
};
