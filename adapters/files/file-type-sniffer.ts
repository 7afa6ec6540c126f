import { fileTypeFromBuffer } from 'file-type';
import type { MediaSniffer } from '../../ports/file-contents.js';

/** How many leading bytes the sniffer needs (file-type reads at most about 4 KiB for the types it knows). */
export const SNIFF_BYTES = 4100;

/** Media types from the bytes' signature, by file-type; text has none and answers null. */
export class FileTypeSniffer implements MediaSniffer {
  async sniff(head: Uint8Array): Promise<string | null> {
    return (await fileTypeFromBuffer(head))?.mime ?? null;
  }
}
