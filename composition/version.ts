import { readFileSync } from 'node:fs';

/**
 * Porter's version, from its package.json: one folder up in a source checkout
 * (`composition/`), two in the built package (`dist/composition/`).
 */
export const PORTER_VERSION: string = readVersion();

function readVersion(): string {
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'porter-runtime' && manifest.version) return manifest.version;
    } catch {
      // not this folder
    }
  }
  throw new Error('porter-runtime: its package.json was not found beside the code');
}
