import { authorizeEndpoint } from './oauth-authorize.js';
import { BrowserAnswers } from './oauth-browser-answers.js';
import { consentEndpoint } from './oauth-consent.js';
import type { DoorOAuthEndpointsOptions, OAuthEndpoint } from './oauth-options.js';
import { registerEndpoint } from './oauth-register.js';
import { revokeEndpoint } from './oauth-revoke.js';
import { tokenEndpoint } from './oauth-token.js';

/**
 * The door's authorization server endpoints as Koa handlers, one file each (as the MCP SDK's
 * server lays out its auth handlers): `oauth-authorize.ts`, `oauth-consent.ts`, `oauth-token.ts`,
 * `oauth-revoke.ts`, `oauth-register.ts`. The metadata documents are `discovery-documents.ts`.
 */
export class DoorOAuthEndpoints {
  /** `GET /authorize`: validates the request and shows the consent page (or an error redirect). */
  readonly authorize: OAuthEndpoint;
  /** `POST /authorize`: the consent form. Same-origin only; the handle is single-use and bound to the person. */
  readonly consent: OAuthEndpoint;
  /** `POST /token` (form-encoded): authorization code with PKCE, or a refresh token (rotated). */
  readonly token: OAuthEndpoint;
  /** `POST /revoke` (RFC 7009): 200 with an empty body whenever it lands. */
  readonly revoke: OAuthEndpoint;
  /** `POST /register` (RFC 7591). */
  readonly register: OAuthEndpoint;

  constructor(options: DoorOAuthEndpointsOptions) {
    const answers = new BrowserAnswers(options);
    this.authorize = authorizeEndpoint(options, answers);
    this.consent = consentEndpoint(options, answers);
    this.token = tokenEndpoint(options);
    this.revoke = revokeEndpoint(options);
    this.register = registerEndpoint(options);
  }
}
