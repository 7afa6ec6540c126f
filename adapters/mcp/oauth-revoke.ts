import { allowingAnyOrigin } from './cors.js';
import type { DoorOAuthEndpointsOptions, OAuthEndpoint } from './oauth-options.js';
import { clientCredentials, readForm } from './oauth-request.js';
import { answeringOAuthErrors } from './oauth-response.js';
import { textResponse } from '../shared/web-answers.js';

/** `POST /revoke` (RFC 7009): 200 with an empty body whenever it lands. */
export function revokeEndpoint(options: Pick<DoorOAuthEndpointsOptions, 'oauth' | 'logger'>): OAuthEndpoint {
  return allowingAnyOrigin((request, exchange) =>
    answeringOAuthErrors(request, options.logger, async () => {
      const form = await readForm(request, exchange);
      await options.oauth.revokeToken.execute({
        token: form.token,
        tokenTypeHint: form.token_type_hint,
        client: clientCredentials(request, form, 'revoke'),
      });
      return textResponse(200, '');
    }),
  );
}
