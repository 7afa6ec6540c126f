import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppDocument } from '../../domain/apps/app-document.js';
import { tinyDocument } from './apps-documents.js';

/** A host's pin manifest and component files in a temporary folder, editable as the host would. */
export async function hostComponents(slot = 'pricing') {
  const folder = await mkdtemp(join(tmpdir(), 'porter-pins-'));
  const manifestFile = join(folder, 'pins.json');
  const component = join(folder, `${slot}.app.json`);
  const write = (document: AppDocument) => writeFile(component, JSON.stringify(document, null, 2));
  await write({ ...tinyDocument(), title: 'Pricing' });
  await writeFile(manifestFile, JSON.stringify({ slots: [{ slot, file: `${slot}.app.json`, title: 'Pricing table' }] }));
  return {
    folder,
    manifestFile,
    slot,
    /** The host edits its component (so its hash changes). */
    async change(title: string) {
      await write({ ...tinyDocument(), title });
    },
    async remove() {
      await rm(folder, { recursive: true, force: true });
    },
  };
}
