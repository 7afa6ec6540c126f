import { DOOR_SCOPES } from '../../domain/door/door-scope.js';
import { PKCE_METHOD } from '../../domain/door/pkce.js';
import { CLIENT_AUTH_METHODS } from '../../domain/door/door-client.js';
import type { DoorUrls } from './door-urls.js';

/** RFC 9728 protected-resource metadata: the transport, and who issues its tokens. */
export function protectedResourceMetadata(urls: DoorUrls, authorizationServer: string, resourceName: string) {
  return {
    resource: urls.resource,
    authorization_servers: [authorizationServer],
    bearer_methods_supported: ['header'],
    scopes_supported: [...DOOR_SCOPES],
    resource_name: resourceName,
    resource_documentation: urls.connect,
  };
}

/** RFC 8414 metadata of the door's own authorization server. PKCE is S256 only. */
export function authorizationServerMetadata(urls: DoorUrls) {
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    registration_endpoint: urls.register,
    // Clients that have a Client ID Metadata Document use it rather than registering (MCP 2025-11-25).
    client_id_metadata_document_supported: true,
    revocation_endpoint: urls.revoke,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: [PKCE_METHOD],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    scopes_supported: [...DOOR_SCOPES],
    authorization_response_iss_parameter_supported: true,
    service_documentation: urls.connect,
  };
}

/** An MCP Server Card (SEP-2127): what a client reads before it connects. */
export function serverCard(urls: DoorUrls, input: { title: string; version: string }) {
  const host = new URL(urls.resource).hostname;
  const namespace = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(host) && !/^[\d.]+$/.test(host) ? host.split('.').reverse().join('.') : 'local';
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: `${namespace}/porter`,
    title: input.title,
    description: `${input.title}'s tools for AI agents, through Porter's MCP door. Sign-in with OAuth; risky actions wait for the person's approval.`,
    version: input.version,
    remotes: [{ type: 'streamable-http', url: urls.resource }],
    websiteUrl: urls.connect,
  };
}
