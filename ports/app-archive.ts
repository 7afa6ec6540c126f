import type { AppDocument } from '../domain/apps/app-document.js';

/** The app file format: a zip holding `app.json` and an optional `app/` tree of server files. */
export const APP_MEDIA_TYPE = 'application/vnd.porter.app';

export const ARCHIVE_LIMITS = {
  /** The archive as sent. */
  maxArchiveBytes: 8 * 1024 * 1024,
  maxEntries: 128,
  /** `app.json` once inflated. */
  maxManifestBytes: 2 * 1024 * 1024,
  /** Any `app/` file once inflated. */
  maxFileBytes: 512 * 1024,
  /** Everything once inflated. */
  maxTotalBytes: 8 * 1024 * 1024,
} as const;

/** What an archive held, not yet checked against the document rules. */
export interface ArchiveContents {
  /** `app.json`, parsed. */
  readonly manifest: unknown;
  /** `app/<path>` entries by path relative to `app/`, as text. */
  readonly files: Readonly<Record<string, string>>;
}

/**
 * Packs and unpacks app files. `unpack` enforces the limits above and safe paths (no absolute
 * paths, no `..`, nothing outside `app.json` and `app/`): it throws PayloadTooLarge or
 * InvalidInput before anything is stored.
 */
export interface AppArchive {
  pack(document: AppDocument): Uint8Array;
  unpack(bytes: Uint8Array): ArchiveContents;
}
