import { parse } from 'node:querystring';
import { z } from 'zod';
import { MAX_CLIENT_ID_URL_LENGTH } from '../../domain/door/client-id-metadata-document.js';
import type { BrowserAnswers, BrowserEndpointOptions } from './oauth-browser-answers.js';
import type { OAuthEndpoint } from './oauth-options.js';
import { presentMembers } from './present-members.js';
import { issuesOf, siteOf } from './oauth-request.js';

const text = (max: number) => z.string().max(max).optional();

/** Stands for a PKCE parameter that is there but cannot be one (repeated, or far too long). */
const MALFORMED = '';

/**
 * A PKCE parameter: any malformed value is kept as malformed rather than refused here, so the use
 * case answers it like every other PKCE fault, with the error redirect the specification requires.
 */
const pkceParameter = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (value === undefined ? undefined : typeof value === 'string' && value.length <= 200 ? value : MALFORMED));

/**
 * The `/authorize` query. Unknown parameters are ignored, as RFC 6749 §3.1 requires of an
 * authorization server; the known ones are bounded strings (a repeated one arrives as an array and
 * is refused), except the PKCE pair (see pkceParameter). The door's rules (PKCE, redirect URI,
 * scope) run in the use case.
 */
export const authorizeQuery = z.object({
  response_type: text(40),
  client_id: text(MAX_CLIENT_ID_URL_LENGTH),
  redirect_uri: text(2000),
  code_challenge: pkceParameter,
  code_challenge_method: pkceParameter,
  scope: text(400),
  state: text(2000),
  resource: text(2000),
});

/**
 * The query as the OpenAPI document describes it: `client_id` is required (the use case refuses a
 * request without one with its own message), the rest as the handler reads it.
 */
export const documentedAuthorizeQuery = authorizeQuery.extend({
  client_id: z
    .string()
    .min(1)
    .max(MAX_CLIENT_ID_URL_LENGTH)
    .describe(
      'A client registered with this door (`POST /register`), or the https URL of its Client ID Metadata Document; another is 400.',
    ),
});

/** `GET /authorize`: validates the request and shows the consent page (or an error redirect). */
export function authorizeEndpoint(options: BrowserEndpointOptions, answers: BrowserAnswers): OAuthEndpoint {
  return answers.endpoint(async (request, exchange, urls) => {
    // Read as Koa reads a query: a repeated parameter is a list (refused), `+` a space.
    const parsed = authorizeQuery.safeParse({ ...parse(new URL(request.url).search.slice(1)) });
    if (!parsed.success)
      return answers.problemPage(request, 'invalid_request', `The authorization request is malformed: ${issuesOf(parsed.error)}`);
    const q = parsed.data;
    const step = await options.oauth.beginAuthorization.execute({
      query: presentMembers({
        responseType: q.response_type,
        clientId: q.client_id,
        redirectUri: q.redirect_uri,
        codeChallenge: q.code_challenge,
        codeChallengeMethod: q.code_challenge_method,
        scope: q.scope,
        state: q.state,
        resource: q.resource,
      }),
      site: siteOf(urls),
      signedIn: await options.signedIn(exchange),
    });
    return answers.follow(request, step, urls, 302);
  });
}
