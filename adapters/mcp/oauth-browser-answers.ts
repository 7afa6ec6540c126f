import { Unavailable } from '../../domain/errors.js';
import type { AuthorizationStep } from '../../ports/use-cases/door.js';
import type { WebExchange } from '../shared/web-handler.js';
import { brandedPage, escapeHtml, pageResponse } from './door-page.js';
import type { DoorUrls } from './door-urls.js';
import type { DoorOAuthEndpointsOptions, OAuthEndpoint } from './oauth-options.js';
import { NO_STORE, prefersHtml, redirectResponse } from '../shared/web-answers.js';
import { jsonResponse } from './web-exchange.js';

type BrowserOptions = Pick<DoorOAuthEndpointsOptions, 'urlsAt' | 'brand' | 'consentPage' | 'signInUrl' | 'logger'>;

/** What a browser-facing endpoint uses besides its answers: the use cases and the person signed in. */
export type BrowserEndpointOptions = Pick<DoorOAuthEndpointsOptions, 'oauth' | 'signedIn'>;

/**
 * How the browser-facing endpoints (`GET` and `POST /authorize`) answer: a page a person reads,
 * a redirect, or OAuth's JSON for a client that is not a browser — never the wire envelope.
 */
export class BrowserAnswers {
  constructor(private readonly options: BrowserOptions) {}

  /**
   * A browser-facing endpoint: `handle` gets the request, its exchange and its door URLs, and
   * whatever it throws answers with a page (see showingProblems).
   */
  endpoint(handle: (request: Request, exchange: WebExchange, urls: DoorUrls) => Promise<Response>): OAuthEndpoint {
    return (request, exchange) => this.showingProblems(request, () => handle(request, exchange, this.options.urlsAt(exchange.origin)));
  }

  /** An unexpected failure answers with a page (or OAuth JSON), never the wire envelope. */
  async showingProblems(request: Request, handle: () => Promise<Response>): Promise<Response> {
    try {
      return await handle();
    } catch (error) {
      const unavailable = error instanceof Unavailable;
      if (!unavailable)
        this.options.logger.error('door authorization endpoint failed', {
          cause: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      return this.problemPage(
        request,
        unavailable ? 'temporarily_unavailable' : 'server_error',
        unavailable ? 'The service is unavailable; try again shortly' : 'Something went wrong on our side',
        unavailable ? 503 : 500,
      );
    }
  }

  /** Answers the authorization's next step. */
  follow(request: Request, step: AuthorizationStep, urls: DoorUrls, redirectStatus: 302 | 303): Response {
    switch (step.kind) {
      case 'refuse':
        return this.problemPage(request, step.problem.error, step.problem.description);
      case 'redirect':
        return redirectResponse(request, step.location, redirectStatus, { 'cache-control': 'no-store' });
      case 'sign-in': {
        const query = new URL(request.url).search;
        const returnTo = `${urls.authorize}${query.length > 1 ? query : ''}`;
        if (this.options.signInUrl)
          return redirectResponse(request, this.options.signInUrl(returnTo), 302, { 'cache-control': 'no-store' });
        const brand = this.options.brand;
        return pageResponse(
          401,
          brandedPage(
            brand,
            'Sign in first',
            `<h1>Sign in to ${escapeHtml(brand.name)} first</h1>
<p>To connect an agent, sign in to ${escapeHtml(brand.name)} in this browser, then <a href="${escapeHtml(returnTo)}">come back to this page</a>.</p>`,
          ),
        );
      }
      case 'consent':
        return pageResponse(200, this.options.consentPage({ ...step.view, action: urls.authorize, brand: this.options.brand }));
    }
  }

  /**
   * A refusal a person sees in the browser (nothing to redirect to): an HTML page for browsers,
   * OAuth's JSON shape for everything else.
   */
  problemPage(request: Request, error: string, description: string, status = 400): Response {
    if (prefersHtml(request)) {
      const brand = this.options.brand;
      return pageResponse(
        status,
        brandedPage(
          brand,
          'Cannot connect',
          `<h1>This connection request cannot go on</h1>
<p>${escapeHtml(description)}</p><p class="muted">Error: <code>${escapeHtml(error)}</code></p>`,
        ),
      );
    }
    return jsonResponse(status, { error, error_description: description }, NO_STORE);
  }
}
