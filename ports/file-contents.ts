/** What the bytes of a file are, from their signature (never from what the client said). */
export interface MediaSniffer {
  /** The media type the first bytes' signature names, or null when they carry none (text, unknown). */
  sniff(head: Uint8Array): Promise<string | null>;
}

/**
 * Text pulled out of a document, for a model that cannot read the document itself (and for the
 * knowledge index). Throws `InvalidInput` when the bytes are not a readable document of that type.
 */
export interface TextExtractor {
  /** The media types it reads. */
  readonly reads: ReadonlyArray<string>;
  extract(bytes: Uint8Array, mediaType: string): Promise<string>;
}
