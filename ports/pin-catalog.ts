/**
 * A host component's remixable slot as the host's pin manifest declares it, read now: the
 * component file's hash and the AppDocument it describes (unchecked).
 */
export interface PinBaseline {
  readonly slot: string;
  readonly title: string;
  /** SHA-256 (hex) of the component file's bytes. */
  readonly hash: string;
  readonly document: unknown;
}

/** The host's remixable slots. Reads the files on every call, so a sync sees the host's edits. */
export interface PinCatalog {
  /** Every slot of the manifest; a slot whose file cannot be read is reported in `missing`. */
  all(): Promise<{
    readonly baselines: ReadonlyArray<PinBaseline>;
    readonly missing: ReadonlyArray<{ readonly slot: string; readonly reason: string }>;
  }>;
  /** One slot, or null when the manifest has no such slot. Throws when its file cannot be read. */
  baseline(slot: string): Promise<PinBaseline | null>;
}
