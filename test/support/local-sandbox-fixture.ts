import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import type { SandboxOpenOptions } from '../../ports/sandbox.js';
import { callFn, eventually, processAlive, type EchoBody } from './sandbox-apps.js';

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
 * A host that died without closing left `appId`'s server (pid `orphan`) running under the root: the
 * next host (made with `options`), opening the app again, must stop that server before starting its
 * own. Gives the label the new server answers `echo` with.
 */
export async function reopenAfterDeadHost(
  options: ConstructorParameters<typeof LocalSandbox>[0],
  appId: string,
  open: SandboxOpenOptions,
  orphan: number,
): Promise<string> {
  const nextHost = new LocalSandbox(options);
  try {
    const again = await nextHost.open(appId, open);
    await again.start();
    expect(await eventually(() => !processAlive(orphan))).to.equal(true);
    return (await callFn<EchoBody>(again, 'echo')).label;
  } finally {
    await nextHost.closeAll();
  }
}
