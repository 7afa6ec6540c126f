#!/usr/bin/env node
// The `porter` command from a source checkout, run through tsx (a development dependency). The
// published package runs the built `dist/composition/cli/bin.js` instead, with plain node.
import { register as registerCommonJs } from 'tsx/cjs/api';
import { register } from 'tsx/esm/api';

register();
// A host's porter.config.ts in a package without "type": "module" loads as CommonJS: tsx there too.
registerCommonJs();
await import('../composition/cli/bin.ts');
