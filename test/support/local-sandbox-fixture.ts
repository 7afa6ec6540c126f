import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';

/**
 * A LocalSandbox of its own for each test, in a fresh folder named from `prefix`: its servers are
 * stopped, then the folder removed, after the test. Call it in a `describe`; `sandbox()` reads it.
 */
export function localSandboxPerTest(prefix: string, startTimeoutMs: number): { sandbox(): LocalSandbox } {
  let root: string | undefined;
  let sandbox: LocalSandbox | undefined;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), prefix));
    sandbox = new LocalSandbox({ root, startTimeoutMs });
  });
  afterEach(async () => {
    await sandbox?.closeAll();
    if (root) await rm(root, { recursive: true, force: true });
  });
  return {
    sandbox() {
      if (!sandbox) throw new Error('the sandbox is made before each test');
      return sandbox;
    },
  };
}
