/** A client's metadata document as it was read, or why it could not be. */
export type ClientDocumentRead =
  | { readonly ok: true; readonly document: unknown }
  /** `problem` completes "The client metadata document at {url} …". */
  | { readonly ok: false; readonly problem: string };

/**
 * Where the door reads Client ID Metadata Documents: an outbound request on the client's behalf,
 * so through the egress guard, bounded in size and time, and cached as the document's own HTTP
 * caching headers allow. Never rejects.
 */
export interface ClientMetadataDocuments {
  read(url: string): Promise<ClientDocumentRead>;
}
