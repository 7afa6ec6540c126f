import { allowAnyOrigin } from './cors.js';
import type { DoorOAuthEndpointsOptions, OAuthEndpoint } from './oauth-options.js';
import { clientCredentials, readForm } from './oauth-request.js';
import { answeringOAuthErrors } from './oauth-response.js';

/** `POST /revoke` (RFC 7009): 200 with an empty body whenever it lands. */
export function revokeEndpoint(options: Pick<DoorOAuthEndpointsOptions, 'oauth' | 'logger'>): OAuthEndpoint {
  return async (ctx) => {
    allowAnyOrigin(ctx);
    await answeringOAuthErrors(ctx, options.logger, async () => {
      const form = await readForm(ctx);
      await options.oauth.revokeToken.execute({
        token: form.token,
        tokenTypeHint: form.token_type_hint,
        client: clientCredentials(ctx, form, 'revoke'),
      });
      ctx.status = 200;
      ctx.body = '';
    });
  };
}
