import type { Router } from '@koa/router';
import type { WireState } from './wire-state.js';

/**
 * Who stands in front of a group of routes:
 * - `principal`: the org refusal, the CSRF floor, JSON bodies and the principal resolver;
 * - `open`: the floor and JSON bodies, no principal (development and doctor routes);
 * - `self`: nothing — the routes authenticate themselves (webhooks, tick, the MCP door);
 * - `origin`: outside the mount, at exact paths from the origin root (discovery documents).
 */
export type RouteAccess = 'principal' | 'open' | 'self' | 'origin';

/** A family's routes. Paths are relative to the mount, except for `origin` routes. */
export interface WireRoutes {
  readonly access: RouteAccess;
  register(router: Router<WireState>): void;
  /** For `origin` routes: the exact paths they answer, so a host mount can hand them over. */
  readonly originPaths?: ReadonlyArray<string>;
}
