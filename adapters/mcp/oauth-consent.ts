import { z } from 'zod';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import type { BrowserAnswers, BrowserEndpointOptions } from './oauth-browser-answers.js';
import type { OAuthEndpoint } from './oauth-options.js';
import { readForm, siteOf } from './oauth-request.js';

export const consentForm = z
  .object({ handle: z.string().min(1).max(200).describe('As the consent page gave it.'), decision: z.enum(['allow', 'deny']) })
  .meta({ id: 'ConsentForm' });

/** `POST /authorize`: the consent form. Same-origin only; the handle is single-use and bound to the person. */
export function consentEndpoint(options: BrowserEndpointOptions, answers: BrowserAnswers): OAuthEndpoint {
  return answers.endpoint(async (request, exchange, urls) => {
    if (crossSite(request, new URL(urls.issuer).origin))
      return answers.problemPage(request, 'access_denied', 'The consent form must be answered on this site', 403);
    let form: Record<string, string>;
    try {
      form = await readForm(request, exchange);
    } catch (error) {
      if (error instanceof OAuthRefusal) return answers.problemPage(request, error.oauthError, error.description);
      throw error;
    }
    const parsed = consentForm.safeParse(form);
    if (!parsed.success) return answers.problemPage(request, 'invalid_request', 'The consent form is incomplete');
    const step = await options.oauth.answerConsent.execute({
      handle: parsed.data.handle,
      approve: parsed.data.decision === 'allow',
      site: siteOf(urls),
      signedIn: await options.signedIn(exchange),
    });
    // 303: the browser follows a POST's redirect with a GET.
    return answers.follow(request, step, urls, 303);
  });
}

/** A browser told us the form came from elsewhere (Origin or Fetch Metadata): refuse it. */
function crossSite(request: Request, origin: string): boolean {
  const from = request.headers.get('origin');
  if (from && from !== 'null' && from !== origin) return true;
  const site = request.headers.get('sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}
