import { z } from 'zod';
import { CLIENT_AUTH_METHODS } from '../../domain/door/door-client.js';
import { MAX_REDIRECT_URI_LENGTH, REDIRECT_URI } from '../../domain/door/redirect-uri.js';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import type { RegisteredClient } from '../../ports/use-cases/door.js';
import { allowingAnyOrigin } from './cors.js';
import type { DoorOAuthEndpointsOptions, OAuthEndpoint } from './oauth-options.js';
import { issuesOf, readJson } from './oauth-request.js';
import { answeringOAuthErrors } from './oauth-response.js';
import { presentMembers } from './present-members.js';
import { NO_STORE } from '../shared/web-answers.js';
import { jsonResponse } from './web-exchange.js';
import { defined } from '../../domain/defined.js';

/**
 * An optional member: any value is taken, and one that does not fit `schema` is dropped as if it
 * was not sent. So the document says it takes any value, and what is kept.
 */
const lenient = <T extends z.ZodType>(schema: T, kept: string) =>
  z
    .unknown()
    .transform((value): z.output<T> | undefined => {
      const parsed = schema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    })
    .optional()
    .describe(`Any value: kept when it is ${kept}, else dropped.`);

/**
 * RFC 7591 client metadata. Unknown members are dropped, not refused: §2 requires a server to
 * ignore metadata it does not understand. Redirect URIs are read strictly (a bad one refuses the
 * registration); every other member the door reads is bounded and typed, and one that does not
 * fit is dropped too, so a client's registration body never fails on what the door would not use.
 */
export const clientMetadata = z
  .object({
    redirect_uris: z
      .array(
        z
          .string()
          .max(MAX_REDIRECT_URI_LENGTH)
          .regex(REDIRECT_URI, 'must be https:, http: on a loopback host, or a private-use scheme, without credentials or a fragment'),
      )
      .min(1)
      .max(20)
      .describe(
        '`https:` URIs, `http:` on a loopback host (`127.0.0.1`, `[::1]`, `localhost`; any port matches later), or a private-use scheme (`cursor://…`; not `javascript:`, `data:`, `file:` and the like); no credentials, no fragment.',
      ),
    client_name: lenient(z.string().min(1).max(200), 'a name of 1 to 200 characters'),
    token_endpoint_auth_method: lenient(
      z.string().max(100),
      `a string; ${CLIENT_AUTH_METHODS.join(', ')} are kept, another method is replaced by \`none\` (PKCE binds a public client)`,
    ),
    grant_types: lenient(
      z.array(z.string().max(200)).max(20),
      'a list of at most 20 grant types; those other than authorization_code and refresh_token are dropped',
    ),
    response_types: lenient(z.array(z.string().max(100)).max(10), 'a list of at most 10; only `code` is kept'),
    scope: lenient(z.string().max(1000), 'a string, narrowed to `mcp`'),
    client_uri: lenient(z.url().max(2000), 'a URL'),
    logo_uri: lenient(z.url().max(2000), 'a URL'),
    software_id: lenient(z.string().max(200), 'a string of at most 200 characters'),
    software_version: lenient(z.string().max(100), 'a string of at most 100 characters'),
  })
  .meta({
    id: 'ClientMetadata',
    description:
      'RFC 7591 client metadata. Members the door does not know, or whose value it cannot use, are dropped; unsupported grant types, response types, scopes and authentication methods are narrowed to what the door does. The answer shows what was kept.',
  });

/** `POST /register` (RFC 7591). */
export function registerEndpoint(options: Pick<DoorOAuthEndpointsOptions, 'oauth' | 'logger'>): OAuthEndpoint {
  return allowingAnyOrigin((request, exchange) =>
    answeringOAuthErrors(request, options.logger, async () => {
      const parsed = clientMetadata.safeParse(await readJson(request, exchange));
      if (!parsed.success) {
        const aboutRedirects = parsed.error.issues.some((issue) => issue.path[0] === 'redirect_uris');
        throw new OAuthRefusal(
          aboutRedirects ? 'invalid_redirect_uri' : 'invalid_client_metadata',
          `The client metadata is not valid: ${issuesOf(parsed.error)}`,
        );
      }
      const m = parsed.data;
      const registered = await options.oauth.registerClient.execute({
        redirectUris: m.redirect_uris,
        ...presentMembers({
          clientName: m.client_name,
          tokenEndpointAuthMethod: m.token_endpoint_auth_method,
          grantTypes: m.grant_types,
          responseTypes: m.response_types,
          scope: m.scope,
          clientUri: m.client_uri,
          logoUri: m.logo_uri,
          softwareId: m.software_id,
          softwareVersion: m.software_version,
        }),
      });
      return jsonResponse(201, registrationResponse(registered), NO_STORE);
    }),
  );
}

function registrationResponse(client: RegisteredClient) {
  return {
    client_id: client.clientId,
    ...defined({ client_secret: client.clientSecret, client_secret_expires_at: client.clientSecret === undefined ? undefined : 0 }),
    client_id_issued_at: client.clientIdIssuedAt,
    redirect_uris: client.redirectUris,
    client_name: client.clientName,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    scope: client.scope,
    ...presentMembers({
      client_uri: client.clientUri,
      logo_uri: client.logoUri,
      software_id: client.softwareId,
      software_version: client.softwareVersion,
    }),
  };
}
