import { clientFromDocument, clientIdUrlProblem, isClientIdUrl } from '../../domain/door/client-id-metadata-document.js';
import type { DoorClient } from '../../domain/door/door-client.js';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import type { Clock } from '../../ports/clock.js';
import type { ClientMetadataDocuments } from '../../ports/client-metadata-documents.js';
import type { DoorClientBook } from './client-book.js';

/** Finds the client a `client_id` names. */
export interface DoorClientLookup {
  /**
   * The client, or null when the id names none. Rejects with an `invalid_client` OAuthRefusal
   * (status 401) when the id is a metadata document URL the door cannot use, saying why.
   */
  find(clientId: string): Promise<DoorClient | null>;
}

/**
 * Every client the door knows: the ones registered with it (`mcpc_…`, RFC 7591) and the ones that
 * name themselves by their Client ID Metadata Document, read afresh (or from its HTTP cache) each
 * time the client is needed, so an edited document takes effect and nothing about them is stored.
 */
export class DoorClients implements DoorClientLookup {
  constructor(
    private readonly registered: DoorClientBook,
    private readonly documents: ClientMetadataDocuments,
    private readonly clock: Clock,
  ) {}

  async find(clientId: string): Promise<DoorClient | null> {
    if (!isClientIdUrl(clientId)) return (await this.registered.find(clientId))?.client ?? null;
    const problem = clientIdUrlProblem(clientId);
    if (problem) throw new OAuthRefusal('invalid_client', `client_id ${JSON.stringify(clientId)} ${problem}`, 401);
    const read = await this.documents.read(clientId);
    if (!read.ok) throw new OAuthRefusal('invalid_client', `The client metadata document at ${clientId} ${read.problem}`, 401);
    return clientFromDocument(clientId, read.document, this.clock.now().toISOString());
  }
}
