import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClusterInstanceOptions } from './cluster-instance.js';
import { roundRobinProxy, type ProxyOptions, type RoundRobinProxy } from './round-robin-proxy.js';
import { startTsx } from './child-process.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from './postgres.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INSTANCE = join(ROOT, 'test', 'support', 'cluster-instance.ts');
export const WIRE = '/api/porter';

export interface ClusterInstance {
  /** The instance's own origin (its wire is at `${url}/api/porter`). */
  readonly url: string;
  readonly child: ChildProcess;
  /** What it wrote to stderr (warnings and errors). */
  readonly stderr: () => string;
}

export interface TurnCluster {
  readonly instances: ReadonlyArray<ClusterInstance>;
  readonly proxy: RoundRobinProxy;
  /** The wire as the balancer serves it. */
  readonly wire: string;
  /** Kills one instance the way a crash does (SIGKILL) and waits for it to be gone. */
  kill(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Several Porter instances, each its own process (test/support/cluster-instance.ts), on one
 * database, behind a round-robin balancer: a deployment as production runs it.
 */
export async function startCluster(
  size: number,
  options: ClusterInstanceOptions & { readonly proxy?: ProxyOptions },
): Promise<TurnCluster> {
  const { proxy: proxyOptions, ...instanceOptions } = options;
  const started = await Promise.allSettled(Array.from({ length: size }, () => startInstance(instanceOptions)));
  const instances = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failure = started.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult | undefined;
  if (failure) {
    for (const instance of instances) instance.child.kill('SIGKILL');
    throw failure.reason;
  }
  const proxy = await roundRobinProxy(
    instances.map((instance) => instance.url),
    proxyOptions,
  );
  return {
    instances,
    proxy,
    wire: `${proxy.url}${WIRE}`,
    async kill(index) {
      const { child } = instances[index]!;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
    async close() {
      await proxy.close();
      await Promise.all(
        instances.map(async ({ child }) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}

/**
 * A cluster of `size` instances on a database of its own (a fresh PostgreSQL database, or one SQLite
 * file), started before the calling suite and closed after it; the suite skips on PostgreSQL when
 * the run has no server. The function returned gives the running cluster and its database's URL.
 */
export function clusterPerSuite(
  size: number,
  engine: 'postgresql' | 'sqlite',
  options: Omit<Parameters<typeof startCluster>[1], 'databaseUrl'> = {},
): () => TurnCluster & { readonly databaseUrl: string } {
  let database: TestDatabase | null = null;
  let dir: string | null = null;
  let cluster: (TurnCluster & { readonly databaseUrl: string }) | null = null;
  before(async function () {
    // Starting the instances may take minutes on a loaded machine (a CI run's first minutes, with
    // the checks and every worker compiling beside it), whatever the suite allows a test.
    this.timeout(Math.max(this.timeout(), 180_000));
    let url: string;
    if (engine === 'postgresql') {
      const server = await postgresServerUrl();
      if (!server) return this.skip();
      database = await createTestDatabase(server);
      url = database.url;
    } else {
      dir = await mkdtemp(join(tmpdir(), 'porter-cluster-'));
      url = `sqlite:${join(dir, 'porter.db')}`;
    }
    cluster = Object.assign(await startCluster(size, { ...options, databaseUrl: url }), { databaseUrl: url });
  });
  after(async function () {
    this.timeout(Math.max(this.timeout(), 30_000));
    await cluster?.close();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => cluster!;
}

async function startInstance(options: ClusterInstanceOptions): Promise<ClusterInstance> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  // The instance's model is the scripted one it is given; no provider key may override it.
  for (const key of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'PORTER_MODEL_URL', 'PORTER_DATABASE_URL']) delete env[key];
  const { child, match, stderr } = await startTsx({
    script: INSTANCE,
    args: [JSON.stringify(options)],
    env,
    ready: /listening (\d+)/,
    exited: 'a cluster instance exited before it listened',
  });
  return { url: `http://127.0.0.1:${Number(match[1])}`, child, stderr };
}
