#!/usr/bin/env node
// The `porter` command. Porter ships TypeScript and runs it through tsx (a runtime dependency),
// so this works from a fresh clone after `npm ci` with no build step.
import process from 'node:process';
import { register as registerCommonJs } from 'tsx/cjs/api';
import { register } from 'tsx/esm/api';

register();
// A host's porter.config.ts in a package without "type": "module" loads as CommonJS: tsx there too.
registerCommonJs();
const { main } = await import('../composition/cli/main.ts');
const code = await main(process.argv.slice(2));
// Background work (store pools, schedulers) must not keep a finished command alive.
process.exit(code);
