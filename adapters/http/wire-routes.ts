import type { SecurityRequirement, WireRoute } from './wire-route.js';

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
  /** The family, as the OpenAPI document tags its routes. */
  readonly tag: string;
  readonly routes: ReadonlyArray<WireRoute>;
  /** For `origin` routes: the exact paths they answer, so a host mount can hand them over. */
  readonly originPaths?: ReadonlyArray<string>;
  /**
   * `own`: the routes answer their failures in their own shapes (OAuth, JSON-RPC), which they
   * declare; the document then adds no error envelopes for them.
   */
  readonly errorShape?: 'envelope' | 'own';
  /** Security schemes these routes use (OpenAPI Security Scheme Objects), by name. */
  readonly securitySchemes?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The group's security requirements; principal routes default to the host's session or the anonymous cookie. */
  readonly security?: ReadonlyArray<SecurityRequirement>;
  /**
   * For `own` groups: how a path of theirs (as the request named it) answers a method it does not
   * take (405, with `Allow` set to `allowed`), in their shape. Others answer 405 in the envelope.
   */
  readonly refuseMethod?: (path: string, allowed: ReadonlyArray<string>) => Response;
}

/** A family behind the principal floor, as every family of caller routes is. */
export function principalFamily(tag: string, routes: ReadonlyArray<WireRoute>): WireRoutes {
  return { access: 'principal', tag, routes };
}

/** A family of open routes: the floor and JSON bodies, no principal. */
export function openFamily(tag: string, routes: ReadonlyArray<WireRoute>): WireRoutes {
  return { access: 'open', tag, routes };
}
