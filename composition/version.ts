import { readFileSync } from 'node:fs';

/** Porter's version, from its package.json. */
export const PORTER_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
