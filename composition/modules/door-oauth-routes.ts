import { bare, json, ownBody, route, type SecurityRequirement, type WireRoute } from '../../adapters/http/wire-route.js';
import { ClientRegistration, OAuthError, RevocationForm, TokenForm, TokenResponse } from '../../adapters/mcp/door-shapes.js';
import { documentedAuthorizeQuery } from '../../adapters/mcp/oauth-authorize.js';
import { consentForm } from '../../adapters/mcp/oauth-consent.js';
import type { DoorOAuthEndpoints } from '../../adapters/mcp/oauth-endpoints.js';
import { clientMetadata } from '../../adapters/mcp/oauth-register.js';
import { externallyOwned } from '../../adapters/mcp/door-answers.js';
import { FORGIVEN_REPLAYS } from '../../domain/door/token-family.js';
import { HOST_SESSION, MCP, OAUTH_HEADERS, oauthError, page, preflightRoute } from './door-route-kit.js';

/** The routes of the door's own authorization server: authorize and consent, token, revoke, register. */
export function oauthRoutes(oauth: DoorOAuthEndpoints): WireRoute[] {
  const failures = {
    500: oauthError('Something went wrong on our side.'),
    503: oauthError('`temporarily_unavailable`: the store cannot do this step exactly once; try again.'),
  };
  // The browser endpoints answer their failures with a page a person reads.
  const pageFailures = {
    500: page('Something went wrong on our side.'),
    503: page('The service is unavailable; try again shortly.'),
  };
  const client: ReadonlyArray<SecurityRequirement> = [{ doorClientBasic: [] }, {}];
  /**
   * An endpoint OAuth clients call from any origin (token, revoke, register): a POST that answers
   * in OAuth's shape, its failures included, with its CORS preflight beside it.
   */
  const clientEndpoint = (
    name: 'token' | 'revoke' | 'register',
    declaration: Pick<WireRoute, 'id' | 'summary' | 'description' | 'body' | 'responses' | 'security'>,
  ): WireRoute[] => [
    route({
      ...declaration,
      method: 'post',
      path: `${MCP}/${name}`,
      responses: { ...declaration.responses, ...failures },
      web: oauth[name],
    }),
    preflightRoute(`preflight${name[0]!.toUpperCase()}${name.slice(1)}`, `${MCP}/${name}`, ['POST'], OAUTH_HEADERS),
  ];
  return [
    route({
      id: 'authorize',
      method: 'get',
      path: `${MCP}/authorize`,
      summary: 'Begin an authorization (OAuth 2.1, PKCE S256 only)',
      description:
        "A person signed in with the host sees the consent page; anyone else is sent to sign in first. A request the client's redirect URI can hear about is answered by redirecting there with `error` (PKCE missing or not `S256` included).",
      query: documentedAuthorizeQuery,
      responses: {
        200: page('The consent page (it posts back here).'),
        302: bare("A redirect: to the client's redirect URI (with `code` and `state`, or `error`), or to the host's sign-in page.", {
          Location: { description: 'Where to go.' },
        }),
        400: {
          description: 'A request with nothing to redirect to: a page for browsers, OAuth JSON for anything else.',
          content: { 'text/html': null, 'application/json': OAuthError },
        },
        401: page('Sign in with the host first (when the host has no sign-in URL to redirect to).'),
        ...pageFailures,
      },
      security: HOST_SESSION,
      web: oauth.authorize,
    }),
    route({
      id: 'answerConsent',
      method: 'post',
      path: `${MCP}/authorize`,
      summary: 'Answer the consent page',
      description:
        'Same-site only (Origin and Fetch Metadata are checked); the handle is single-use and bound to the person who saw the page.',
      body: ownBody('The consent form.', { 'application/x-www-form-urlencoded': consentForm }),
      responses: {
        303: bare("Back to the client's redirect URI, with `code` or `error=access_denied`.", {
          Location: { description: 'Where to go.' },
        }),
        400: {
          description:
            'The form is incomplete, or its handle unknown, used or expired (it is single-use): a page for browsers, OAuth JSON for anything else.',
          content: { 'text/html': null, 'application/json': OAuthError },
        },
        403: {
          description: 'The form was sent from another site: a page for browsers, OAuth JSON for anything else.',
          content: { 'text/html': null, 'application/json': OAuthError },
        },
        ...pageFailures,
      },
      security: HOST_SESSION,
      web: oauth.consent,
    }),
    ...clientEndpoint('token', {
      id: 'issueTokens',
      summary: 'Exchange a code, or refresh',
      description: `Refresh tokens rotate: a rotated one presented again revokes its whole family, except within the refresh grace window (\`oauth.refreshGraceSeconds\`): requests of its own client that raced the rotation, and up to ${FORGIVEN_REPLAYS} replays after it (one per call a client may have in flight), get working tokens of the same family; the replay after those revokes the family. Any requested scope is narrowed to \`mcp\`. Never cached.`,
      body: ownBody('The token request, form-encoded.', { 'application/x-www-form-urlencoded': TokenForm }),
      responses: {
        200: json('The tokens.', TokenResponse),
        400: oauthError('`invalid_request`, `invalid_grant`, `unsupported_grant_type`, `invalid_scope` or `invalid_target`.'),
        401: {
          ...oauthError('`invalid_client`: the client did not authenticate.'),
          headers: {
            'WWW-Authenticate': {
              description: '`Basic realm="porter-door"`: an unknown `client_id`, or a client that failed to authenticate.',
            },
          },
        },
      },
      security: client,
    }),
    ...clientEndpoint('revoke', {
      id: 'revokeToken',
      summary: 'Revoke a token (RFC 7009)',
      body: ownBody('The revocation request, form-encoded.', { 'application/x-www-form-urlencoded': RevocationForm }),
      responses: {
        200: bare('Revoked, or no such token: the answer is the same (an empty body).'),
        400: oauthError(
          'Not form-encoded, no `token` or `client_id`, unreadable Basic credentials, an unknown or unauthenticated client, or a token of another client.',
        ),
      },
      security: client,
    }),
    ...clientEndpoint('register', {
      id: 'registerClient',
      summary: 'Register a client (RFC 7591)',
      body: ownBody('Client metadata.', { 'application/json': clientMetadata }),
      responses: {
        201: json('The registered client (a confidential client gets its secret here, once).', ClientRegistration),
        400: oauthError('`invalid_client_metadata` or `invalid_redirect_uri`.'),
      },
    }),
  ];
}

/**
 * With `remoteAs`, the external issuer owns the authorization server: its endpoints are not here,
 * and say so in OAuth's shape. They only refuse, so they are no operations of the document.
 */
export function externalOAuthRoutes(issuer: string): WireRoute[] {
  return ['authorize', 'token', 'revoke', 'register'].map((name) =>
    route({
      id: `refuse${name[0]!.toUpperCase()}${name.slice(1)}`,
      method: 'all',
      documented: false,
      path: `${MCP}/${name}`,
      summary: `Not served here: ${issuer} owns this door's OAuth`,
      responses: { 404: oauthError('The external issuer owns this endpoint.') },
      web: externallyOwned(issuer),
    }),
  );
}
