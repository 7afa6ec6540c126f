import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bubblewrapSupport } from '../../../adapters/sandbox/local/bubblewrap-command.js';
import { LocalSandbox } from '../../../adapters/sandbox/local/local-sandbox.js';
import { testResolver } from './sandbox-behaviour.js';
import { HOGGING_SERVER } from '../../support/sandbox-apps.js';
import { processTree } from '../../support/process-tree.js';

/** A process's command name (a Node process may name itself after its main thread). */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return ''; // ended meanwhile
  }
}

describe('An app stopped for a limit, when its sandbox is slow to say it ended (bubblewrap)', function () {
  this.timeout(60_000);
  let root: string;
  let sandbox: LocalSandbox;

  before(async function () {
    if (!bubblewrapSupport().available) this.skip();
    root = await realpath(await mkdtemp(join(tmpdir(), 'porter-limit-told-')));
    // Watched rarely: the kernel's rlimit ends the app, and only its last words say why.
    sandbox = new LocalSandbox({ root, resolve: testResolver, startTimeoutMs: 15_000, appLimits: { memoryMb: 96, watchMs: 10_000 } });
  });
  after(async () => {
    await sandbox?.closeAll();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('still says it used too much memory once the sandbox tells, however long that took (here 12 s)', async () => {
    const session = await sandbox.open('app_slow_to_tell', { egress: null, owner: 'person-a' });
    await session.writeFiles([{ path: '/app/server.js', content: HOGGING_SERVER }]);
    await session.start();
    // The app's own sandbox (the bubblewrap inside the gate) is held still, as a host too busy to
    // run it would: the app dies, but its gate cannot hear of it until the hold ends.
    const gate = (await processTree(session.sandboxPid!)).find((pid) => commandOf(pid) !== 'bwrap')!;
    const held = (await processTree(gate)).filter((pid) => pid !== gate && commandOf(pid) === 'bwrap');
    expect(held, 'the app runs inside a sandbox of its own').to.not.deep.equal([]);
    for (const pid of held) process.kill(pid, 'SIGSTOP');
    const release = () => {
      for (const pid of held) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // released already, and ended
        }
      }
    };
    try {
      const failed = await session.fetch('/fn/hog', { method: 'POST', body: JSON.stringify({ mb: 512 }) }).then(
        (response) => `answered ${response.status}`,
        () => 'failed',
      );
      expect(failed).to.equal('failed');
      const asked = session.isListening();
      setTimeout(release, 12_000);
      expect(await asked).to.equal(false);
    } finally {
      release();
    }
    expect(session.stopped?.()?.limit).to.equal('memory');
  });
});
