import { DoorClient } from '../../domain/door/door-client.js';
import { DOOR_SCOPE, grantedScope } from '../../domain/door/door-scope.js';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import { redirectUriProblem } from '../../domain/door/redirect-uri.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ClientRegistration, RegisteredClient } from '../../ports/use-cases/door.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { DoorClientBook } from './client-book.js';

const GRANT_TYPES = ['authorization_code', 'refresh_token'];

/** What RegisterClient is built from. */
export interface RegisterClientDeps {
  readonly clients: DoorClientBook;
  readonly secrets: DoorSecrets;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

/** `POST {wire}/mcp/register`: open dynamic client registration (RFC 7591), as MCP clients expect. */
export class RegisterClient implements UseCase<ClientRegistration, RegisteredClient> {
  private readonly clients: DoorClientBook;
  private readonly secrets: DoorSecrets;
  private readonly ids: Ids;
  private readonly clock: Clock;
  private readonly audit: AuditTrail;

  constructor(deps: RegisterClientDeps) {
    this.clients = deps.clients;
    this.secrets = deps.secrets;
    this.ids = deps.ids;
    this.clock = deps.clock;
    this.audit = deps.audit;
  }

  async execute(registration: ClientRegistration): Promise<RegisteredClient> {
    for (const uri of registration.redirectUris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new OAuthRefusal('invalid_redirect_uri', `redirect_uri ${JSON.stringify(uri)} ${problem}`);
    }
    const grantTypes = registration.grantTypes ?? GRANT_TYPES;
    const unsupportedGrant = grantTypes.find((grant) => !GRANT_TYPES.includes(grant));
    if (unsupportedGrant)
      throw new OAuthRefusal(
        'invalid_client_metadata',
        `grant_type ${unsupportedGrant} is not supported; use authorization_code and refresh_token`,
      );
    const responseTypes = registration.responseTypes ?? ['code'];
    if (responseTypes.some((type) => type !== 'code'))
      throw new OAuthRefusal('invalid_client_metadata', 'Only the code response type is supported');
    const scope = grantedScope(registration.scope);
    if (scope === null) throw new OAuthRefusal('invalid_client_metadata', `The only scope is "${DOOR_SCOPE}"`);

    const authMethod = registration.tokenEndpointAuthMethod ?? 'none';
    const secret = authMethod === 'none' ? null : this.secrets.mint();
    const now = this.clock.now();
    const client = DoorClient.register({
      id: this.ids.mint('doorClient'),
      name: registration.clientName ?? 'MCP client',
      redirectUris: [...registration.redirectUris],
      authMethod,
      secretHash: secret === null ? null : this.secrets.digest(secret),
      clientUri: registration.clientUri ?? null,
      logoUri: registration.logoUri ?? null,
      softwareId: registration.softwareId ?? null,
      softwareVersion: registration.softwareVersion ?? null,
      registeredAt: now.toISOString(),
    });
    await this.clients.save(client);
    await this.audit.record({
      subject: 'porter:door',
      action: 'door.client-registered',
      outcome: 'ok',
      details: { clientId: client.id, name: client.name },
    });
    return {
      clientId: client.id,
      ...(secret === null ? {} : { clientSecret: secret }),
      clientIdIssuedAt: Math.floor(now.getTime() / 1000),
      redirectUris: [...registration.redirectUris],
      clientName: client.name,
      grantTypes,
      responseTypes,
      tokenEndpointAuthMethod: authMethod,
      scope,
      ...(registration.clientUri ? { clientUri: registration.clientUri } : {}),
      ...(registration.logoUri ? { logoUri: registration.logoUri } : {}),
      ...(registration.softwareId ? { softwareId: registration.softwareId } : {}),
      ...(registration.softwareVersion ? { softwareVersion: registration.softwareVersion } : {}),
    };
  }
}
