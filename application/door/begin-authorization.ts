import { PendingConsent, type AuthorizationAsk } from '../../domain/door/authorization-request.js';
import { namesTheDoor } from '../../domain/door/resource-indicator.js';
import { grantedScope } from '../../domain/door/door-scope.js';
import { isS256Challenge, PKCE_METHOD, PKCE_REQUIRED } from '../../domain/door/pkce.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { ToolRegistry } from '../../ports/tool-registry.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AuthorizationStep, AuthorizeRequest } from '../../ports/use-cases/door.js';
import type { DoorClient } from '../../domain/door/door-client.js';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import type { DoorClientLookup } from './door-clients.js';
import type { DoorSettings } from './door-settings.js';
import type { PendingConsentBook } from './pending-consent-book.js';
import { redirectBack } from './redirect-back.js';
import { defined } from '../../domain/defined.js';

/** What BeginAuthorization is built from. */
export interface BeginAuthorizationDeps {
  readonly clients: DoorClientLookup;
  readonly pending: PendingConsentBook;
  readonly tools: ToolRegistry;
  readonly secrets: DoorSecrets;
  readonly settings: DoorSettings;
  readonly clock: Clock;
}

/**
 * `GET {wire}/mcp/authorize`. A request naming an unknown client or an unregistered redirect URI is
 * refused on the spot; every other fault goes back to the client as an error redirect. A valid
 * request shows the signed-in person the consent page (or sends them to sign in first).
 */
export class BeginAuthorization implements UseCase<AuthorizeRequest, AuthorizationStep> {
  constructor(private readonly deps: BeginAuthorizationDeps) {}

  async execute({ query, site, signedIn }: AuthorizeRequest): Promise<AuthorizationStep> {
    if (!query.clientId) return refuse('client_id is required');
    let client: DoorClient | null;
    try {
      client = await this.deps.clients.find(query.clientId);
    } catch (error) {
      // A metadata document the door cannot use: refused here, never redirected to its redirect URIs.
      if (error instanceof OAuthRefusal) return { kind: 'refuse', problem: { error: error.oauthError, description: error.description } };
      throw error;
    }
    if (!client) return refuse('client_id is not registered with this door');
    if (!query.redirectUri) return refuse('redirect_uri is required');
    const redirectUri = client.redirectFor(query.redirectUri);
    if (!redirectUri) return refuse('redirect_uri is not registered for this client');

    const back = (error: string, description: string): AuthorizationStep => ({
      kind: 'redirect',
      location: redirectBack(redirectUri, { error, error_description: description, state: query.state, iss: site.issuer }),
    });
    // PKCE is checked first, so whatever else is wrong with the request a PKCE fault always gets the
    // answer the specification words exactly.
    if (query.codeChallengeMethod !== PKCE_METHOD || !isS256Challenge(query.codeChallenge)) return back('invalid_request', PKCE_REQUIRED);
    if (query.responseType === undefined) return back('invalid_request', 'response_type is required');
    if (query.responseType !== 'code') return back('unsupported_response_type', 'Only response_type=code is supported');
    // Scopes the door does not know (`offline_access`, `claudeai`…) are narrowed away, never refused.
    const { scope } = grantedScope(query.scope);
    if (query.resource !== undefined && !namesTheDoor(query.resource, site.resource))
      return back('invalid_target', `resource must be ${site.resource}`);

    if (!signedIn || signedIn.anonymous) return { kind: 'sign-in' };

    const ask: AuthorizationAsk = {
      clientId: client.id,
      redirectUri,
      codeChallenge: query.codeChallenge,
      scope,
      state: query.state ?? null,
      resource: site.resource,
    };
    const handle = this.deps.secrets.mint();
    const expiresAt = new Date(this.deps.clock.now().getTime() + this.deps.settings.consentTtlSeconds * 1000).toISOString();
    await this.deps.pending.save(PendingConsent.open({ id: this.deps.secrets.digest(handle), ask, subject: signedIn.subject, expiresAt }));
    const { clientUri } = client.toPrimitives();
    return {
      kind: 'consent',
      view: {
        handle,
        client: {
          id: client.id,
          name: client.name,
          clientUri,
          redirectOrigin: originOf(redirectUri),
          ...defined({ documentHost: client.documentHost || undefined }),
        },
        person: { subject: signedIn.subject, ...defined({ name: signedIn.name || undefined }) },
        scope,
        tools: this.deps.tools
          .list()
          .map((tool) => ({ name: tool.name, description: tool.description, risk: tool.risk, egress: tool.egress ?? false })),
      },
    };
  }
}

function refuse(description: string): AuthorizationStep {
  return { kind: 'refuse', problem: { error: 'invalid_request', description } };
}

/** Where the code will go, as a person reads it: scheme and host (or the whole URI for app schemes). */
function originOf(uri: string): string {
  const url = new URL(uri);
  return url.origin !== 'null' ? url.origin : `${url.protocol}//${url.host}`;
}
