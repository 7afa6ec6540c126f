import { DOOR_SCOPE } from '../../domain/door/door-scope.js';
import { AUTHORIZATION_SERVER_WELL_KNOWN, doorPath, PROTECTED_RESOURCE_WELL_KNOWN } from '../../adapters/mcp/door-urls.js';
import type { DoorRouteOptions } from './door-routes.js';

/** The door's security schemes in the OpenAPI document: its own OAuth server's, or the external issuer's bearer. */
export function doorSchemes(options: DoorRouteOptions): Readonly<Record<string, Readonly<Record<string, unknown>>>> {
  const door = doorPath(options.mount);
  const resourceMetadata = `${PROTECTED_RESOURCE_WELL_KNOWN}${door}`;
  if (options.remoteIssuer) {
    return {
      doorOAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: `Access tokens from ${options.remoteIssuer}, which owns this door's OAuth (verified against its JWKS). Discover it from the protected-resource metadata at \`${resourceMetadata}\` (RFC 9728).`,
      },
    };
  }
  const metadata = `${AUTHORIZATION_SERVER_WELL_KNOWN}${door}`;
  return {
    doorOAuth: {
      type: 'oauth2',
      description: `The door's own OAuth 2.1 server: PKCE S256 only, dynamic client registration at \`${door}/register\`, rotating refresh tokens. Clients discover it from \`${resourceMetadata}\` (RFC 9728) and \`${metadata}\` (RFC 8414).`,
      flows: {
        authorizationCode: {
          authorizationUrl: `${door}/authorize`,
          tokenUrl: `${door}/token`,
          refreshUrl: `${door}/token`,
          scopes: { [DOOR_SCOPE]: "Use the host's tools through MCP as the person who consented." },
        },
      },
      'x-oauth2-metadata-url': metadata,
    },
    doorClientBasic: {
      type: 'http',
      scheme: 'basic',
      description: "`client_secret_basic`: a confidential client's id and secret (public clients send `client_id` in the form).",
    },
  };
}
