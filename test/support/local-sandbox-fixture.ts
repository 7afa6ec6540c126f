import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import type { SandboxOpenOptions } from '../../ports/sandbox.js';
import { processAlive } from './sandbox-apps.js';
import { startTsx } from './child-process.js';

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

/**
 * A host that serves an app (start.sh with a background helper) and is then killed with SIGKILL,
 * closing nothing: answers the host pids its sandbox ran, which must all end by themselves.
 */
export async function serversOfKilledHost(
  root: string,
  options: Omit<NonNullable<ConstructorParameters<typeof LocalSandbox>[0]>, 'root' | 'logger' | 'resolve'>,
  egress: SandboxOpenOptions['egress'] = null,
): Promise<number[]> {
  const host = await startTsx({
    script: 'test/support/sandbox-host.ts',
    args: [root, JSON.stringify(options), JSON.stringify(egress)],
    ready: /READY ([\d ]+)\n/,
    exited: 'the sandbox host exited before it served',
  });
  const pids = host.match[1]!.trim().split(' ').map(Number);
  expect(pids.every((pid) => processAlive(pid))).to.equal(true);
  host.child.kill('SIGKILL');
  await new Promise((resolve) => host.child.once('exit', resolve));
  return pids;
}
