import type { DoorClient } from '../../domain/door/door-client.js';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { ClientCredentials } from '../../ports/use-cases/door.js';
import type { DoorClientLookup } from './door-clients.js';

/**
 * Who is calling the token or revocation endpoint. Public clients name themselves; confidential
 * ones prove it with their secret, compared as digests in constant time. `status` is what a failure
 * answers: 401 at the token endpoint (RFC 6749 §5.2), 400 at revocation (the specification's rule).
 */
export async function authenticateClient(
  clients: DoorClientLookup,
  secrets: DoorSecrets,
  credentials: ClientCredentials,
  status: 400 | 401,
): Promise<DoorClient> {
  if (!credentials.clientId) throw new OAuthRefusal('invalid_request', 'client_id is required', 400);
  const client = await clients.find(credentials.clientId).catch((error: unknown) => {
    // A metadata document the door cannot use: the same refusal, with this endpoint's status.
    throw error instanceof OAuthRefusal ? new OAuthRefusal(error.oauthError, error.description, status) : error;
  });
  if (!client) throw new OAuthRefusal('invalid_client', 'client_id is not registered with this door', status);
  if (client.isPublic) {
    if (credentials.clientSecret !== undefined)
      throw new OAuthRefusal('invalid_client', 'This client is public: it has no secret to send', status);
    return client;
  }
  const presented = credentials.clientSecret;
  if (presented === undefined || credentials.via === 'none')
    throw new OAuthRefusal('invalid_client', 'This client must authenticate with its client_secret', status);
  if (!secrets.same(secrets.digest(presented), client.secretHash ?? ''))
    throw new OAuthRefusal('invalid_client', 'The client could not be authenticated', status);
  return client;
}
