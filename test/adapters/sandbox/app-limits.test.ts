import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import {
  appLimitsOf,
  DEFAULT_APP_LIMITS,
  limitOfExit,
  prlimitOptions,
  runtimeDataBytes,
} from '../../../adapters/sandbox/local/app-limits.js';

const UNLIMITED = { processes: Infinity, data: Infinity, fileSize: Infinity };

describe('App limits (local sandbox)', () => {
  it('sets each rlimit hard, so the app cannot raise it', () => {
    expect(prlimitOptions(DEFAULT_APP_LIMITS, UNLIMITED, 0)).to.deep.equal([
      '--nproc=128:128',
      `--data=${512 * 1024 * 1024}:${512 * 1024 * 1024}`,
      `--fsize=${256 * 1024 * 1024}:${256 * 1024 * 1024}`,
      '--core=0:0',
    ]);
  });

  it("holds an app's memory on top of what this Node maps before running anything: a Node app starts under the smallest limit", function () {
    if (!existsSync('/usr/bin/prlimit')) this.skip();
    const options = prlimitOptions(appLimitsOf({ memoryMb: 64 }), UNLIMITED);
    expect(options[1]).to.equal(`--data=${64 * 1024 * 1024 + runtimeDataBytes()}:${64 * 1024 * 1024 + runtimeDataBytes()}`);
    const started = spawnSync('/usr/bin/prlimit', [options[1]!, process.execPath, '-e', "process.stdout.write('listening')"], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(started.stdout, started.stderr).to.equal('listening');
  });

  it('keeps a limit looser than the host imposes at the host’s (prlimit could not raise it)', () => {
    const options = prlimitOptions(appLimitsOf({ processes: 100_000 }), { ...UNLIMITED, processes: 96_365 });
    expect(options[0]).to.equal('--nproc=96365:96365');
  });

  it('refuses a limit out of range or unknown, naming it', () => {
    expect(() => appLimitsOf({ memoryMb: 8 })).to.throw('appLimits.memoryMb must be an integer from 64');
    expect(() => appLimitsOf({ processes: 1.5 })).to.throw('appLimits.processes');
    expect(() => appLimitsOf({ cpu: 3 } as never)).to.throw('appLimits.cpu is not a limit');
    expect(appLimitsOf({ diskMb: 32 })).to.deep.equal({ ...DEFAULT_APP_LIMITS, diskMb: 32 });
  });

  it('reads the limit an app ran into from how it ended', () => {
    expect(limitOfExit('SIGXCPU', '')).to.equal('cpu');
    expect(limitOfExit('SIGXFSZ', '')).to.equal('disk');
    expect(limitOfExit(null, 'RangeError: Array buffer allocation failed')).to.equal('memory');
    expect(limitOfExit('SIGABRT', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory')).to.equal('memory');
    expect(
      limitOfExit(
        null,
        "Error: Failed to allocate memory\n    at Buffer.alloc (node:buffer:443:17) {\n  code: 'ERR_MEMORY_ALLOCATION_FAILED'\n}",
      ),
    ).to.equal('memory');
    expect(limitOfExit(null, 'Error: boom: DATABASE_URL is not set')).to.equal(null);
  });
});
