import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxSession } from '../../ports/sandbox.js';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import { nodeApp } from '../../test/support/sandbox-apps.js';
import { compare, type BenchResult } from '../support/harness.js';

const POLICY = { allowDomains: ['example.com'] };

/**
 * The local sandbox's start() (stop the running server, boot it, wait until it listens) for an app
 * with an egress policy — in its own network namespace where the machine allows it, and in the
 * cooperative mode — each beside the same start() of an app without a policy (on the host network,
 * no proxy), measured in the same run. Apps without a policy are what the namespace must not slow.
 */
export async function run(): Promise<BenchResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'porter-sandbox-bench-'));
  const isolated = new LocalSandbox({ root: join(root, 'auto'), containment: 'none' });
  const cooperative = new LocalSandbox({ root: join(root, 'cooperative'), containment: 'none', egressIsolation: 'cooperative' });
  try {
    const unrestricted = await prepared(isolated, 'app_unrestricted', null);
    const results: BenchResult[] = [];
    if (isolated.egressIsolation === 'namespace') {
      const namespaced = await prepared(isolated, 'app_namespaced', POLICY);
      // The namespace adds a second Node boot (the gate) and `ip` before the server's own: at most 3×.
      results.push(await startBeside('start() with a policy, in a network namespace', namespaced, unrestricted, 1 / 3));
    }
    const steered = await prepared(cooperative, 'app_cooperative', POLICY);
    // The preload loads Node's HTTP clients and undici before the app's code: at most 2×.
    results.push(await startBeside('start() with a policy, cooperative (preload + proxy variables)', steered, unrestricted, 1 / 2));
    return results;
  } finally {
    await isolated.closeAll();
    await cooperative.closeAll();
    await rm(root, { recursive: true, force: true });
  }
}

async function prepared(sandbox: LocalSandbox, appId: string, egress: { allowDomains: string[] } | null): Promise<SandboxSession> {
  const session = await sandbox.open(appId, { egress });
  await session.writeFiles(nodeApp(appId));
  return session;
}

function startBeside(name: string, subject: SandboxSession, anchor: SandboxSession, goal: number): Promise<BenchResult> {
  return compare({
    name,
    subject: { name: 'start()', run: () => subject.start() },
    anchor: { name: 'start() without a policy', run: () => anchor.start() },
    iterations: 40,
    warmup: 4,
    slice: 4,
    measure: 'p50',
    goal,
  });
}
