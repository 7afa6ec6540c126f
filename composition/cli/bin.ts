#!/usr/bin/env node
// The `porter` command as installed (`bin` in package.json points at its build).
import process from 'node:process';
import { main } from './main.js';

const code = await main(process.argv.slice(2));
// Background work (store pools, schedulers) must not keep a finished command alive.
process.exit(code);
