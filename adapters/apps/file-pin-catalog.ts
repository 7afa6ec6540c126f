import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { PinBaseline, PinCatalog } from '../../ports/pin-catalog.js';

export const SLOT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** One remixable slot: the host component file (an AppDocument as JSON) and a title. */
export const pinSlotSchema = z.strictObject({
  slot: z.string().regex(SLOT_NAME, 'must be 1..100 letters, digits, _, . or -'),
  file: z.string().min(1),
  title: z.string().min(1).max(200).optional(),
});

export const pinManifestSchema = z.strictObject({
  slots: z
    .array(pinSlotSchema)
    .max(500)
    .refine((slots) => new Set(slots.map((s) => s.slot)).size === slots.length, 'slot names must be unique'),
});

export type PinSlot = z.output<typeof pinSlotSchema>;

/** Where the manifest is: a JSON file (paths relative to it), or inline slots (paths relative to `baseDir`). */
export type PinManifestSource = { readonly manifestFile: string } | { readonly slots: ReadonlyArray<PinSlot>; readonly baseDir: string };

/**
 * The host's pin manifest on disk. Every call reads the manifest and the component files again
 * and hashes their bytes (SHA-256), so `porter sync` sees the host's latest components.
 */
export class FilePinCatalog implements PinCatalog {
  constructor(private readonly source: PinManifestSource) {}

  async all() {
    const { slots, baseDir } = await this.manifest();
    const baselines: PinBaseline[] = [];
    const missing: Array<{ slot: string; reason: string }> = [];
    for (const slot of slots) {
      try {
        baselines.push(await read(slot, baseDir));
      } catch (error) {
        missing.push({ slot: slot.slot, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    return { baselines, missing };
  }

  async baseline(name: string): Promise<PinBaseline | null> {
    const { slots, baseDir } = await this.manifest();
    const slot = slots.find((s) => s.slot === name);
    return slot ? read(slot, baseDir) : null;
  }

  private async manifest(): Promise<{ slots: ReadonlyArray<PinSlot>; baseDir: string }> {
    if ('slots' in this.source) return this.source;
    const file = this.source.manifestFile;
    const parsed = pinManifestSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (!parsed.success)
      throw new Error(
        `The pin manifest ${file} is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    return { slots: parsed.data.slots, baseDir: dirname(file) };
  }
}

async function read(slot: PinSlot, baseDir: string): Promise<PinBaseline> {
  const path = isAbsolute(slot.file) ? slot.file : resolve(baseDir, slot.file);
  const bytes = await readFile(path);
  const hash = createHash('sha256').update(bytes).digest('hex');
  let document: unknown;
  try {
    document = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new Error(`${slot.file} is not JSON (a pin's component file is an app document)`);
  }
  const title =
    slot.title ?? (typeof (document as { title?: unknown })?.title === 'string' ? (document as { title: string }).title : slot.slot);
  return { slot: slot.slot, title, hash, document };
}
