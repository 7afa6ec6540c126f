import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult } from './support/harness.js';
import { formatResults } from './support/printer.js';

/**
 * Runs every bench/<family>/<name>.bench.ts, or only those whose family or name one of the
 * arguments names (`npm run bench -- store`, `npm run bench -- rejoin streams webhooks`: one run),
 * and prints each result beside its anchor.
 */
const benchRoot = dirname(fileURLToPath(import.meta.url));

async function benchFiles(filters: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const family of await readdir(benchRoot, { withFileTypes: true })) {
    if (!family.isDirectory() || family.name === 'support') continue;
    for (const file of await readdir(join(benchRoot, family.name))) {
      if (!file.endsWith('.bench.ts')) continue;
      const name = file.slice(0, -'.bench.ts'.length);
      if (filters.length === 0 || filters.includes(family.name) || filters.includes(name)) files.push(join(benchRoot, family.name, file));
    }
  }
  return files.sort();
}

const filters = process.argv.slice(2);
const files = await benchFiles(filters);
if (files.length === 0) {
  console.error(`No bench matches "${filters.join('", "')}". Benches live in bench/<family>/<name>.bench.ts.`);
  process.exit(1);
}
for (const file of files) {
  const bench = (await import(pathToFileURL(file).href)) as { run?: () => Promise<BenchResult[]> };
  if (typeof bench.run !== 'function') throw new Error(`${relative(benchRoot, file)} does not export run()`);
  const results = await bench.run();
  // A bench that measures something other than time (install size) prints its own table.
  if (results.length > 0) console.log(formatResults(relative(benchRoot, file), results));
}
