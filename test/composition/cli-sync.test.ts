import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main } from '../../composition/cli/main.js';
import type { CliIo } from '../../composition/cli/cli-io.js';
import type { PorterOptions } from '../../composition/config/config-schema.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import type { ListQuery, RecordSet } from '../../ports/store.js';
import { ManualClock } from '../support/manual-clock.js';
import { hostComponents } from '../support/apps-pins.js';

/** A store that remembers which record sets were listed, and lists apps slowly (a big deployment). */
class WatchedStore extends MemoryStore {
  readonly listed = new Set<string>();

  constructor(private readonly appsListMs: number) {
    super({ clock: new ManualClock('2026-06-01T12:00:00.000Z') });
  }

  override records<T>(name: string): RecordSet<T> {
    const set = super.records<T>(name);
    const list = async (query?: ListQuery) => {
      this.listed.add(name);
      if (name === 'apps') await new Promise((resolve) => setTimeout(resolve, this.appsListMs));
      return set.list(query);
    };
    return new Proxy(set, { get: (target, property) => (property === 'list' ? list : Reflect.get(target, property)) });
  }
}

function recordingIo(env: NodeJS.ProcessEnv): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line), env, tty: false };
}

const OPTIONS_KEY = '__porterSyncTestOptions';

/** A host's config module whose default export is options this test hands it (a store instance). */
async function configModule(folder: string, options: PorterOptions): Promise<string> {
  (globalThis as Record<string, unknown>)[OPTIONS_KEY] = options;
  const file = join(folder, 'porter.config.mjs');
  await writeFile(file, `export default globalThis.${OPTIONS_KEY};\n`);
  return file;
}

describe('porter sync (composition/cli/sync-command.ts)', function () {
  // A whole host starts and syncs: a cap for a busy machine, not a pace.
  this.timeout(60_000);
  afterEach(() => {
    delete (globalThis as Record<string, unknown>)[OPTIONS_KEY];
  });

  it('never ticks schedules or takes runs while it syncs, whatever scheduler the host config names', async () => {
    const components = await hostComponents();
    try {
      // The host's own config drives ticks every second; the sync takes longer than that.
      const store = new WatchedStore(2_500);
      const config = await configModule(components.folder, {
        store,
        scheduler: 'interval',
        tickIntervalSeconds: 1,
        pins: components.manifestFile,
        logger: 'silent',
      });
      const io = recordingIo({ NODE_ENV: 'development', PORTER_SECRET: 'a-development-secret-for-the-tests-0123456789' });
      const code = await main(['sync', '--config', config], io);
      expect(code, io.stderr.join('\n')).to.equal(0);
      expect(io.stdout.join('\n')).to.contain('1 slot(s)');
      expect(store.listed.has('apps')).to.equal(true);
      // A tick reads the armed automations and sweeps the runs; a sync reads neither.
      expect([...store.listed]).to.not.include('automations');
      expect([...store.listed]).to.not.include('runs');
    } finally {
      await components.remove();
    }
  });
});
