import type { Context } from 'koa';
import { z } from 'zod';
import { CLIENT_AUTH_METHODS } from '../../domain/door/door-client.js';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import { Unavailable } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { AuthorizationStep, DoorOAuthUseCases, DoorSite, RegisteredClient } from '../../ports/use-cases/door.js';
import type { ConsentPageRenderer } from './consent-page.js';
import { allowAnyOrigin } from './cors.js';
import { brandedPage, escapeHtml, sendPage, type DoorBrand } from './door-page.js';
import type { DoorUrls } from './door-urls.js';
import { clientCredentials, readForm, readJson } from './oauth-request.js';
import { answeringOAuthErrors, noStore } from './oauth-response.js';

export interface DoorOAuthEndpointsOptions {
  readonly oauth: DoorOAuthUseCases;
  /** The door's public URLs for this request. */
  readonly urlsOf: (ctx: Context) => DoorUrls;
  /** The person signed in with the host on this browser (the host's resolver), or null. */
  readonly signedIn: (ctx: Context) => Promise<Principal | null>;
  /** Where to send a person who is not signed in; they come back to `returnTo` afterwards. */
  readonly signInUrl?: (returnTo: string) => string;
  readonly brand: DoorBrand;
  readonly consentPage: ConsentPageRenderer;
  readonly clock: Clock;
  readonly logger: Logger;
}

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
  client_id: text(100),
  redirect_uri: text(2000),
  code_challenge: pkceParameter,
  code_challenge_method: pkceParameter,
  scope: text(400),
  state: text(2000),
  resource: text(2000),
});

export const consentForm = z
  .object({ handle: z.string().min(1).max(200).describe('As the consent page gave it.'), decision: z.enum(['allow', 'deny']) })
  .meta({ id: 'ConsentForm' });

const grantType = z.enum(['authorization_code', 'refresh_token']);

/**
 * RFC 7591 client metadata. Unknown members are dropped, not refused: §2 requires a server to
 * ignore metadata it does not understand. What it does read is bounded and typed.
 */
export const clientMetadata = z.object({
  redirect_uris: z.array(z.string().min(1).max(2000)).min(1).max(20),
  client_name: z.string().min(1).max(200).optional(),
  token_endpoint_auth_method: z.enum(CLIENT_AUTH_METHODS as [string, ...string[]]).optional(),
  grant_types: z.array(z.string().max(100)).max(10).optional(),
  response_types: z.array(z.string().max(100)).max(10).optional(),
  scope: z.string().max(400).optional(),
  client_uri: z.url().max(2000).optional(),
  logo_uri: z.url().max(2000).optional(),
  software_id: z.string().max(200).optional(),
  software_version: z.string().max(100).optional(),
}).meta({ id: 'ClientMetadata', description: 'RFC 7591 client metadata; members the door does not know are ignored.' });

/** The door's authorization server endpoints as Koa handlers. */
export class DoorOAuthEndpoints {
  constructor(private readonly options: DoorOAuthEndpointsOptions) {}

  /** `GET /authorize`: validates the request and shows the consent page (or an error redirect). */
  readonly authorize = (ctx: Context): Promise<void> => this.showingProblems(ctx, () => this.beginAuthorization(ctx));

  /** `POST /authorize`: the consent form. Same-origin only; the handle is single-use and bound to the person. */
  readonly consent = (ctx: Context): Promise<void> => this.showingProblems(ctx, () => this.answerConsent(ctx));

  private async beginAuthorization(ctx: Context): Promise<void> {
    const urls = this.options.urlsOf(ctx);
    const parsed = authorizeQuery.safeParse(ctx.query);
    if (!parsed.success) return this.problemPage(ctx, 'invalid_request', `The authorization request is malformed: ${issuesOf(parsed.error)}`);
    const q = parsed.data;
    const step = await this.options.oauth.beginAuthorization.execute({
      query: {
        ...(q.response_type !== undefined ? { responseType: q.response_type } : {}),
        ...(q.client_id !== undefined ? { clientId: q.client_id } : {}),
        ...(q.redirect_uri !== undefined ? { redirectUri: q.redirect_uri } : {}),
        ...(q.code_challenge !== undefined ? { codeChallenge: q.code_challenge } : {}),
        ...(q.code_challenge_method !== undefined ? { codeChallengeMethod: q.code_challenge_method } : {}),
        ...(q.scope !== undefined ? { scope: q.scope } : {}),
        ...(q.state !== undefined ? { state: q.state } : {}),
        ...(q.resource !== undefined ? { resource: q.resource } : {}),
      },
      site: siteOf(urls),
      signedIn: await this.options.signedIn(ctx),
    });
    this.follow(ctx, step, urls, 302);
  }

  private async answerConsent(ctx: Context): Promise<void> {
    const urls = this.options.urlsOf(ctx);
    if (crossSite(ctx, new URL(urls.issuer).origin)) return this.problemPage(ctx, 'access_denied', 'The consent form must be answered on this site', 403);
    let form: Record<string, string>;
    try {
      form = await readForm(ctx);
    } catch (error) {
      if (error instanceof OAuthRefusal) return this.problemPage(ctx, error.oauthError, error.description);
      throw error;
    }
    const parsed = consentForm.safeParse(form);
    if (!parsed.success) return this.problemPage(ctx, 'invalid_request', 'The consent form is incomplete');
    const step = await this.options.oauth.answerConsent.execute({
      handle: parsed.data.handle,
      approve: parsed.data.decision === 'allow',
      site: siteOf(urls),
      signedIn: await this.options.signedIn(ctx),
    });
    // 303: the browser follows a POST's redirect with a GET.
    this.follow(ctx, step, urls, 303);
  }

  /** The browser-facing endpoints answer an unexpected failure with a page (or OAuth JSON), never the wire envelope. */
  private async showingProblems(ctx: Context, handle: () => Promise<void>): Promise<void> {
    try {
      await handle();
    } catch (error) {
      const unavailable = error instanceof Unavailable;
      if (!unavailable) this.options.logger.error('door authorization endpoint failed', { cause: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      this.problemPage(ctx, unavailable ? 'temporarily_unavailable' : 'server_error', unavailable ? 'The service is unavailable; try again shortly' : 'Something went wrong on our side', unavailable ? 503 : 500);
    }
  }

  /** `POST /token` (form-encoded): authorization code with PKCE, or a refresh token (rotated). */
  readonly token = async (ctx: Context): Promise<void> => {
    // Taken before the body is read: of two refreshes racing, the later one still counts as under way.
    const requestedAt = this.options.clock.now().toISOString();
    allowAnyOrigin(ctx);
    await answeringOAuthErrors(ctx, this.options.logger, async () => {
      const form = await readForm(ctx);
      const grant = grantType.safeParse(form.grant_type);
      if (!grant.success) {
        throw new OAuthRefusal(form.grant_type ? 'unsupported_grant_type' : 'invalid_request', form.grant_type ? `grant_type ${form.grant_type} is not supported` : 'grant_type is required');
      }
      const client = clientCredentials(ctx, form);
      const site = siteOf(this.options.urlsOf(ctx));
      const issued = await this.options.oauth.issueTokens.execute(
        grant.data === 'authorization_code'
          ? { grantType: 'authorization_code', code: form.code, redirectUri: form.redirect_uri, codeVerifier: form.code_verifier, resource: form.resource, client, site }
          : { grantType: 'refresh_token', refreshToken: form.refresh_token, scope: form.scope, resource: form.resource, client, site, requestedAt },
      );
      noStore(ctx);
      ctx.status = 200;
      ctx.body = { access_token: issued.accessToken, token_type: issued.tokenType, expires_in: issued.expiresIn, refresh_token: issued.refreshToken, scope: issued.scope };
    });
  };

  /** `POST /revoke` (RFC 7009): 200 with an empty body whenever it lands. */
  readonly revoke = async (ctx: Context): Promise<void> => {
    allowAnyOrigin(ctx);
    await answeringOAuthErrors(ctx, this.options.logger, async () => {
      const form = await readForm(ctx);
      await this.options.oauth.revokeToken.execute({ token: form.token, tokenTypeHint: form.token_type_hint, client: clientCredentials(ctx, form) });
      ctx.status = 200;
      ctx.body = '';
    });
  };

  /** `POST /register` (RFC 7591). */
  readonly register = async (ctx: Context): Promise<void> => {
    allowAnyOrigin(ctx);
    await answeringOAuthErrors(ctx, this.options.logger, async () => {
      const parsed = clientMetadata.safeParse(await readJson(ctx));
      if (!parsed.success) {
        const aboutRedirects = parsed.error.issues.some((issue) => issue.path[0] === 'redirect_uris');
        throw new OAuthRefusal(aboutRedirects ? 'invalid_redirect_uri' : 'invalid_client_metadata', `The client metadata is not valid: ${issuesOf(parsed.error)}`);
      }
      const m = parsed.data;
      const registered = await this.options.oauth.registerClient.execute({
        redirectUris: m.redirect_uris,
        ...(m.client_name !== undefined ? { clientName: m.client_name } : {}),
        ...(m.token_endpoint_auth_method !== undefined ? { tokenEndpointAuthMethod: m.token_endpoint_auth_method as (typeof CLIENT_AUTH_METHODS)[number] } : {}),
        ...(m.grant_types !== undefined ? { grantTypes: m.grant_types } : {}),
        ...(m.response_types !== undefined ? { responseTypes: m.response_types } : {}),
        ...(m.scope !== undefined ? { scope: m.scope } : {}),
        ...(m.client_uri !== undefined ? { clientUri: m.client_uri } : {}),
        ...(m.logo_uri !== undefined ? { logoUri: m.logo_uri } : {}),
        ...(m.software_id !== undefined ? { softwareId: m.software_id } : {}),
        ...(m.software_version !== undefined ? { softwareVersion: m.software_version } : {}),
      });
      noStore(ctx);
      ctx.status = 201;
      ctx.body = registrationResponse(registered);
    });
  };

  private follow(ctx: Context, step: AuthorizationStep, urls: DoorUrls, redirectStatus: 302 | 303): void {
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
        return sendPage(ctx, 401, brandedPage(brand, 'Sign in first', `<h1>Sign in to ${escapeHtml(brand.name)} first</h1>
<p>To connect an agent, sign in to ${escapeHtml(brand.name)} in this browser, then <a href="${escapeHtml(returnTo)}">come back to this page</a>.</p>`));
      }
      case 'consent':
        return sendPage(ctx, 200, this.options.consentPage({ ...step.view, action: urls.authorize, brand: this.options.brand }));
    }
  }

  /**
   * A refusal a person sees in the browser (nothing to redirect to): an HTML page for browsers,
   * OAuth's JSON shape for everything else.
   */
  private problemPage(ctx: Context, error: string, description: string, status = 400): void {
    if (ctx.accepts('json', 'html') === 'html') {
      const brand = this.options.brand;
      return sendPage(ctx, status, brandedPage(brand, 'Cannot connect', `<h1>This connection request cannot go on</h1>
<p>${escapeHtml(description)}</p><p class="muted">Error: <code>${escapeHtml(error)}</code></p>`));
    }
    noStore(ctx);
    ctx.status = status;
    ctx.body = { error, error_description: description };
  }
}

function siteOf(urls: DoorUrls): DoorSite {
  return { issuer: urls.issuer, resource: urls.resource };
}

/** A browser told us the form came from elsewhere (Origin or Fetch Metadata): refuse it. */
function crossSite(ctx: Context, origin: string): boolean {
  const from = ctx.get('origin');
  if (from && from !== 'null' && from !== origin) return true;
  const site = ctx.get('sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}

function issuesOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
}

function registrationResponse(client: RegisteredClient) {
  return {
    client_id: client.clientId,
    ...(client.clientSecret !== undefined ? { client_secret: client.clientSecret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: client.clientIdIssuedAt,
    redirect_uris: client.redirectUris,
    client_name: client.clientName,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    scope: client.scope,
    ...(client.clientUri !== undefined ? { client_uri: client.clientUri } : {}),
    ...(client.logoUri !== undefined ? { logo_uri: client.logoUri } : {}),
    ...(client.softwareId !== undefined ? { software_id: client.softwareId } : {}),
    ...(client.softwareVersion !== undefined ? { software_version: client.softwareVersion } : {}),
  };
}
