import { z } from 'zod';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import { allowingAnyOrigin } from './cors.js';
import type { DoorOAuthEndpointsOptions, OAuthEndpoint } from './oauth-options.js';
import { clientCredentials, readForm, siteOf } from './oauth-request.js';
import { answeringOAuthErrors } from './oauth-response.js';
import { NO_STORE } from '../shared/web-answers.js';
import { jsonResponse } from './web-exchange.js';

const grantType = z.enum(['authorization_code', 'refresh_token']);

/** Turns of the event loop a refresh lets pass before it may rotate (see lettingRacersIn). */
const RACER_TURNS = 3;

/**
 * Lets the event loop turn a few times, so a refresh racing this one, whose connection reached the
 * process at about the same moment, is accepted, read and given its arrival time before this one
 * can stamp a rotation. Over a synchronous store (SQLite) a refresh otherwise rotates and answers
 * within a single turn, and its racer, read only afterwards, would arrive "after the rotation": a
 * replay, revoking the family, where PostgreSQL's round trips let the racer in and only refuse it.
 */
async function lettingRacersIn(): Promise<void> {
  for (let turn = 0; turn < RACER_TURNS; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Holds a refresh's answer until the clock has left the millisecond it was issued in. Times are
 * kept to the millisecond, and a request stamped in the very millisecond of a rotation counts as
 * having raced it; without this, a fast client's next request (a replay, sent after reading this
 * answer) could share that millisecond and pass for a racer. Bounded, so a stopped clock (tests)
 * costs a few milliseconds, never a hang.
 */
async function leavingTheMillisecond(clock: DoorOAuthEndpointsOptions['clock']): Promise<void> {
  const issuedAt = clock.now().getTime();
  for (let tries = 0; tries < 5 && clock.now().getTime() <= issuedAt; tries++) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** `POST /token` (form-encoded): authorization code with PKCE, or a refresh token (rotated). */
export function tokenEndpoint(options: Pick<DoorOAuthEndpointsOptions, 'oauth' | 'urlsAt' | 'clock' | 'logger'>): OAuthEndpoint {
  return allowingAnyOrigin(async (request, exchange) => {
    // Taken before the body is read: of two refreshes racing, the later one still counts as under way.
    const requestedAt = options.clock.now().toISOString();
    return answeringOAuthErrors(request, options.logger, async () => {
      const form = await readForm(request, exchange);
      const grant = grantType.safeParse(form.grant_type);
      if (!grant.success) {
        throw new OAuthRefusal(
          form.grant_type ? 'unsupported_grant_type' : 'invalid_request',
          form.grant_type ? `grant_type ${form.grant_type} is not supported` : 'grant_type is required',
        );
      }
      if (grant.data === 'refresh_token') await lettingRacersIn();
      const client = clientCredentials(request, form, 'token');
      const site = siteOf(options.urlsAt(exchange.origin));
      const issued = await options.oauth.issueTokens.execute(
        grant.data === 'authorization_code'
          ? {
              grantType: 'authorization_code',
              code: form.code,
              redirectUri: form.redirect_uri,
              codeVerifier: form.code_verifier,
              resource: form.resource,
              client,
              site,
            }
          : {
              grantType: 'refresh_token',
              refreshToken: form.refresh_token,
              scope: form.scope,
              resource: form.resource,
              client,
              site,
              requestedAt,
            },
      );
      if (grant.data === 'refresh_token') await leavingTheMillisecond(options.clock);
      const tokens = {
        access_token: issued.accessToken,
        token_type: issued.tokenType,
        expires_in: issued.expiresIn,
        refresh_token: issued.refreshToken,
        scope: issued.scope,
      };
      return jsonResponse(200, tokens, NO_STORE);
    });
  });
}
