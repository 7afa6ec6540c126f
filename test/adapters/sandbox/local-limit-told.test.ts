import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bubblewrapSupport } from '../../../adapters/sandbox/local/bubblewrap-command.js';
import { LocalSandbox } from '../../../adapters/sandbox/local/local-sandbox.js';
import { testResolver } from './sandbox-behaviour.js';
import { HOGGING_SERVER } from '../../support/sandbox-apps.js';

/** Every process under `pid` on this host, with its command name. */
function descendants(pid: number): Array<{ pid: number; ppid: number; comm: string }> {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read from its last ')'.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        return [{ pid: Number(name), comm: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(stat.slice(close + 2).split(' ')[1]) }];
      } catch {
        return []; // ended meanwhile
      }
    });
  const found: Array<{ pid: number; ppid: number; comm: string }> = [];
  const below = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const each of all)
      if (below.has(each.ppid) && !below.has(each.pid)) {
        below.add(each.pid);
        found.push(each);
        grew = true;
      }
  }
  return found;
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
    const gate = descendants(session.sandboxPid!).find((each) => each.comm !== 'bwrap')!;
    const held = descendants(gate.pid).filter((each) => each.comm === 'bwrap');
    expect(held, 'the app runs inside a sandbox of its own').to.not.deep.equal([]);
    for (const each of held) process.kill(each.pid, 'SIGSTOP');
    const release = () => {
      for (const each of held) {
        try {
          process.kill(each.pid, 'SIGCONT');
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
