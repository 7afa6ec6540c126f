import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Each test file's wall time in a parallel run (`--require test/support/file-wall-times.ts`): in
 * parallel mode root hooks run once per file, so this appends one JSON line per file, with the
 * worker's pid, to `PORTER_TEST_WALL_TIMES` (default `test/e2e/tmp/test-wall-times.jsonl`, ignored).
 * `PORTER_TEST_WALL_TIMES=<file> npm run test:only` adds it.
 */
let started = 0;
export const mochaHooks = {
  beforeAll(this: Mocha.Context) {
    started = Date.now();
  },
  afterAll(this: Mocha.Context) {
    const root = this.test?.parent;
    const file = root?.suites[0]?.file ?? root?.file ?? '?';
    const line = { file, pid: process.pid, start: started, wallMs: Date.now() - started };
    const out = process.env.PORTER_TEST_WALL_TIMES ?? 'test/e2e/tmp/test-wall-times.jsonl';
    mkdirSync(dirname(out), { recursive: true });
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  },
};
