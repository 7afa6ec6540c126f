import type { Context } from 'koa';
import { Unavailable } from '../../domain/errors.js';
import type { AuthorizationStep } from '../../ports/use-cases/door.js';
import { brandedPage, escapeHtml, sendPage } from './door-page.js';
import type { DoorUrls } from './door-urls.js';
import type { DoorOAuthEndpointsOptions, OAuthEndpoint } from './oauth-options.js';
import { noStore } from './oauth-response.js';

type BrowserOptions = Pick<DoorOAuthEndpointsOptions, 'urlsOf' | 'brand' | 'consentPage' | 'signInUrl' | 'logger'>;

/** What a browser-facing endpoint uses besides its answers: the use cases and the person signed in. */
export type BrowserEndpointOptions = Pick<DoorOAuthEndpointsOptions, 'oauth' | 'signedIn'>;

/**
 * How the browser-facing endpoints (`GET` and `POST /authorize`) answer: a page a person reads,
 * a redirect, or OAuth's JSON for a client that is not a browser — never the wire envelope.
 */
export class BrowserAnswers {
  constructor(private readonly options: BrowserOptions) {}

  /**
   * A browser-facing endpoint: `handle` gets the request and its door URLs, and whatever it
   * throws answers with a page (see showingProblems).
   */
  endpoint(handle: (ctx: Context, urls: DoorUrls) => Promise<void>): OAuthEndpoint {
    return (ctx) => this.showingProblems(ctx, () => handle(ctx, this.options.urlsOf(ctx)));
  }

  /** An unexpected failure answers with a page (or OAuth JSON), never the wire envelope. */
  async showingProblems(ctx: Context, handle: () => Promise<void>): Promise<void> {
    try {
      await handle();
    } catch (error) {
      const unavailable = error instanceof Unavailable;
      if (!unavailable)
        this.options.logger.error('door authorization endpoint failed', {
          cause: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      this.problemPage(
        ctx,
        unavailable ? 'temporarily_unavailable' : 'server_error',
        unavailable ? 'The service is unavailable; try again shortly' : 'Something went wrong on our side',
        unavailable ? 503 : 500,
      );
    }
  }

  /** Answers the authorization's next step. */
  follow(ctx: Context, step: AuthorizationStep, urls: DoorUrls, redirectStatus: 302 | 303): void {
    switch (step.kind) {
      case 'refuse':
        return this.problemPage(ctx, step.problem.error, step.problem.description);
      case 'redirect':
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(step.location);
        ctx.status = redirectStatus;
        return;
      case 'sign-in': {
        const returnTo = `${urls.authorize}${ctx.querystring ? `?${ctx.querystring}` : ''}`;
        if (this.options.signInUrl) {
          ctx.set('Cache-Control', 'no-store');
          ctx.redirect(this.options.signInUrl(returnTo));
          return;
        }
        const brand = this.options.brand;
        return sendPage(
          ctx,
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
        return sendPage(ctx, 200, this.options.consentPage({ ...step.view, action: urls.authorize, brand: this.options.brand }));
    }
  }

  /**
   * A refusal a person sees in the browser (nothing to redirect to): an HTML page for browsers,
   * OAuth's JSON shape for everything else.
   */
  problemPage(ctx: Context, error: string, description: string, status = 400): void {
    if (ctx.accepts('json', 'html') === 'html') {
      const brand = this.options.brand;
      return sendPage(
        ctx,
        status,
        brandedPage(
          brand,
          'Cannot connect',
          `<h1>This connection request cannot go on</h1>
<p>${escapeHtml(description)}</p><p class="muted">Error: <code>${escapeHtml(error)}</code></p>`,
        ),
      );
    }
    noStore(ctx);
    ctx.status = status;
    ctx.body = { error, error_description: description };
  }
}
