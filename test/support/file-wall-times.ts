import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Each test file's wall time in a parallel run (`--require test/support/file-wall-times.ts`): in
 * parallel mode root hooks run once per file, so this appends one JSON line per file, with the
 * worker's pid and the CPU time the worker and the children it reaped spent meanwhile, to `PORTER_TEST_WALL_TIMES` (default `test/e2e/tmp/test-wall-times.jsonl`, ignored).
 * `PORTER_TEST_WALL_TIMES=<file> npm run test:only` adds it.
 */
let started = 0;
let cpuAtStart = { own: 0, children: 0 };
export const mochaHooks = {
  beforeAll(this: Mocha.Context) {
    started = Date.now();
    cpuAtStart = cpuMs();
  },
  afterAll(this: Mocha.Context) {
    const root = this.test?.parent;
    const file = root?.suites[0]?.file ?? root?.file ?? '?';
    const cpu = cpuMs();
    const line = {
      file,
      pid: process.pid,
      start: started,
      wallMs: Date.now() - started,
      cpuMs: cpu.own - cpuAtStart.own,
      childrenCpuMs: cpu.children - cpuAtStart.children,
    };
    const out = process.env.PORTER_TEST_WALL_TIMES ?? 'test/e2e/tmp/test-wall-times.jsonl';
    mkdirSync(dirname(out), { recursive: true });
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  },
};

/** This process's CPU time and that of its children it has waited for (/proc/self/stat's utime, stime, cutime, cstime), in ms. */
function cpuMs(): { own: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  // Clock ticks of 10 ms (getconf CLK_TCK); fields 14–17 of stat, counted here from the 3rd.
  return { own: (fields[11]! + fields[12]!) * 10, children: (fields[13]! + fields[14]!) * 10 };
}
