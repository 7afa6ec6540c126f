import { DoorClient } from '../../domain/door/door-client.js';
import { keptAuthMethod, keptGrantTypes, keptResponseTypes } from '../../domain/door/client-metadata.js';
import { grantedScope } from '../../domain/door/door-scope.js';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import { redirectUriProblem } from '../../domain/door/redirect-uri.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ClientRegistration, RegisteredClient } from '../../ports/use-cases/door.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { DoorClientBook } from './client-book.js';
import { defined } from '../../domain/defined.js';

/** What RegisterClient is built from. */
export interface RegisterClientDeps {
  readonly clients: DoorClientBook;
  readonly secrets: DoorSecrets;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

/**
 * `POST {wire}/mcp/register`: open dynamic client registration (RFC 7591), as MCP clients expect.
 * Lenient like the clients need it: unsupported scopes, grant types, response types and
 * authentication methods are narrowed to what the door does, never refused; redirect URIs are
 * checked strictly.
 */
export class RegisterClient implements UseCase<ClientRegistration, RegisteredClient> {
  constructor(private readonly deps: RegisterClientDeps) {}

  async execute(registration: ClientRegistration): Promise<RegisteredClient> {
    // Where codes go is the one thing never negotiated: a bad redirect URI refuses the registration.
    for (const uri of registration.redirectUris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new OAuthRefusal('invalid_redirect_uri', `redirect_uri ${JSON.stringify(uri)} ${problem}`);
    }
    // The rest is negotiated (RFC 7591 §2): what the door does not support is dropped or replaced,
    // and the answer shows what was kept.
    const grantTypes = keptGrantTypes(registration.grantTypes);
    const responseTypes = keptResponseTypes();
    const { scope } = grantedScope(registration.scope);
    const authMethod = keptAuthMethod(registration.tokenEndpointAuthMethod);

    const secret = authMethod === 'none' ? null : this.deps.secrets.mint();
    const now = this.deps.clock.now();
    const client = DoorClient.register({
      id: this.deps.ids.mint('doorClient'),
      name: registration.clientName ?? 'MCP client',
      redirectUris: [...registration.redirectUris],
      authMethod,
      secretHash: secret === null ? null : this.deps.secrets.digest(secret),
      clientUri: registration.clientUri ?? null,
      logoUri: registration.logoUri ?? null,
      softwareId: registration.softwareId ?? null,
      softwareVersion: registration.softwareVersion ?? null,
      registeredAt: now.toISOString(),
    });
    await this.deps.clients.save(client);
    await this.deps.audit.record({
      subject: 'porter:door',
      action: 'door.client-registered',
      outcome: 'ok',
      details: { clientId: client.id, name: client.name },
    });
    return {
      clientId: client.id,
      ...defined({ clientSecret: secret ?? undefined }),
      clientIdIssuedAt: Math.floor(now.getTime() / 1000),
      redirectUris: [...registration.redirectUris],
      clientName: client.name,
      grantTypes: [...grantTypes],
      responseTypes: [...responseTypes],
      tokenEndpointAuthMethod: authMethod,
      scope,
      ...defined({
        clientUri: registration.clientUri || undefined,
        logoUri: registration.logoUri || undefined,
        softwareId: registration.softwareId || undefined,
        softwareVersion: registration.softwareVersion || undefined,
      }),
    };
  }
}
