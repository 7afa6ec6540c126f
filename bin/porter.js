#!/usr/bin/env node
// The `porter` command from a source checkout, run through tsx (a development dependency). The
// published package runs the built `dist/composition/cli/bin.js` instead, with plain node.
import { register } from 'tsx/esm/api';

register();
await import('../composition/cli/bin.ts');
