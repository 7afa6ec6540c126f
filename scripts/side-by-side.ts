/**
 * `tsx scripts/side-by-side.ts typecheck lint`: runs those npm scripts at the same time (each is
 * one process, so two use both cores of a small machine), prints each one's output whole when it
 * ends, with how long it took, and fails when any of them failed. `npm test` runs its checks so.
 */
import { npmRunKept, reportOf } from './npm-run-kept.js';

const runs = await Promise.all(
  process.argv.slice(2).map(async (script) => {
    const run = await npmRunKept(script);
    process.stdout.write(reportOf(run));
    return run;
  }),
);
process.exit(runs.every((run) => run.code === 0) ? 0 : 1);
