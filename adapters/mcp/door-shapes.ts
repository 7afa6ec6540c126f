import { z } from 'zod';
import { CLIENT_AUTH_METHODS } from '../../domain/door/door-client.js';
import { DOOR_SCOPE } from '../../domain/door/door-scope.js';

/**
 * The door's own wire shapes (OAuth forms and answers, JSON-RPC, discovery documents), as zod
 * schemas for the OpenAPI document. The handlers read forms and JSON-RPC themselves; these
 * describe them.
 */

const formField = (description: string) => z.string().optional().describe(description);

/** `POST /token`, form-encoded (RFC 6749 §4.1.3 and §6, with PKCE and RFC 8707 resources). */
export const TokenForm = z
  .object({
    grant_type: z.enum(['authorization_code', 'refresh_token']),
    code: formField('authorization_code: the code from the redirect.'),
    redirect_uri: formField('authorization_code: the redirect URI of the authorization request.'),
    code_verifier: formField('authorization_code: the PKCE verifier (S256).'),
    refresh_token: formField('refresh_token: the refresh token; it rotates on every use.'),
    scope: formField(`refresh_token: optional; whatever is asked, the scope granted (\`${DOOR_SCOPE}\`) is answered.`),
    resource: formField("The door's resource URL (RFC 8707)."),
    client_id: formField(
      'Required unless the client authenticates with HTTP Basic: a public client (`none`), or `client_secret_post`; one not registered with this door is 401 `invalid_client`.',
    ),
    client_secret: formField('`client_secret_post` only.'),
  })
  .meta({ id: 'TokenForm' });

/** `POST /revoke`, form-encoded (RFC 7009). */
export const RevocationForm = z
  .object({
    token: z.string().min(1).describe('An access or refresh token.'),
    token_type_hint: formField('`access_token` or `refresh_token`: where to look first; any other value is ignored (RFC 7009 §2.1).'),
    client_id: formField(
      "The client the token was issued to: required unless it authenticates with HTTP Basic; one not registered with this door, or not the token's, is 400.",
    ),
    client_secret: formField('`client_secret_post` only.'),
  })
  .meta({ id: 'RevocationForm' });

export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().describe('Seconds.'),
    refresh_token: z.string(),
    scope: z.string(),
  })
  .meta({ id: 'TokenResponse' });

export const ClientRegistration = z
  .object({
    client_id: z.string(),
    client_secret: z.string().optional().describe('Confidential clients only, and only in this answer.'),
    client_secret_expires_at: z.literal(0).optional(),
    client_id_issued_at: z.number().int(),
    redirect_uris: z.array(z.string()),
    client_name: z.string(),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    token_endpoint_auth_method: z.enum(CLIENT_AUTH_METHODS as [string, ...string[]]),
    scope: z.string(),
    client_uri: z.string().optional(),
    logo_uri: z.string().optional(),
    software_id: z.string().optional(),
    software_version: z.string().optional(),
  })
  .meta({ id: 'ClientRegistration', description: 'RFC 7591 client information.' });

export const OAuthError = z
  .object({
    error: z.string().describe('An OAuth error code, e.g. `invalid_request`, `invalid_grant`, `invalid_client`.'),
    error_description: z.string(),
  })
  .meta({
    id: 'OAuthError',
    description: "OAuth's error shape (RFC 6749 §5.2); the door's OAuth endpoints answer with it, never the wire envelope.",
  });

const JsonRpcMessage = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number(), z.null()]).optional(),
    method: z.string().optional(),
    params: z.unknown().optional(),
    result: z.unknown().optional(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .meta({ id: 'JsonRpcMessage', description: 'A JSON-RPC 2.0 request, notification or response of the Model Context Protocol.' });

export const JsonRpcBody = z.union([JsonRpcMessage, z.array(JsonRpcMessage)]).meta({ id: 'JsonRpcBody' });

export const JsonRpcError = z
  .object({ jsonrpc: z.literal('2.0'), error: z.object({ code: z.number().int(), message: z.string() }), id: z.null() })
  .meta({ id: 'JsonRpcError', description: 'How the transport refuses a request.' });

export const ProtectedResourceMetadata = z
  .object({
    resource: z.string(),
    authorization_servers: z.array(z.string()),
    bearer_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    resource_name: z.string(),
    resource_documentation: z.string(),
  })
  .meta({ id: 'ProtectedResourceMetadata', description: 'RFC 9728 protected-resource metadata of the MCP transport.' });

export const AuthorizationServerMetadata = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string(),
    client_id_metadata_document_supported: z
      .boolean()
      .describe('A client may name itself by the https URL of its Client ID Metadata Document instead of registering.'),
    revocation_endpoint: z.string(),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.boolean(),
    service_documentation: z.string(),
  })
  .meta({ id: 'AuthorizationServerMetadata', description: "RFC 8414 metadata of the door's own authorization server." });

export const ServerCard = z
  .object({
    $schema: z.string(),
    name: z.string(),
    title: z.string(),
    description: z.string(),
    version: z.string(),
    remotes: z.array(z.object({ type: z.literal('streamable-http'), url: z.string() })),
    websiteUrl: z.string(),
  })
  .meta({ id: 'ServerCard', description: 'An MCP Server Card (SEP-2127).' });
