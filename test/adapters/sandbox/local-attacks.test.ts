import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bubblewrapSupport } from '../../../adapters/sandbox/local/bubblewrap-command.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * Node's own install when it lives outside /usr (e.g. the project's pinned Node in node_modules):
 * bound read-only into every sandbox, the one host path an app may name (see docs/operations.md, The sandbox).
 */
const NODE_HOME = process.execPath.startsWith('/usr/') ? null : dirname(dirname(process.execPath));
/** An ordinary user with no entry anywhere: what a host that is not root runs as. */
const ORDINARY = 4242;

interface LimitOutcome {
  readonly result: { stop: { limit: string; message: string } | null; listening: boolean; afterMs: number };
  readonly maxLagMs: number;
}

interface AttackReport {
  readonly uid: number;
  readonly readLeaks: string[];
  readonly writeLeaks: string[];
  /** How many swappers the app had flipping during each race (0: the race was never mounted). */
  readonly swapsMounted: { read: number; write: number };
  readonly probe: {
    uid: number;
    uidMap: string;
    procSys: { corePattern: true | string; printk: true | string };
    nestedUserNamespace: boolean;
    processes: Array<{ pid: number; ppid: number; cmdline: string }>;
    pid1Memory: true | string;
    mountinfo: string;
    hostUids: number[];
    scratch: string;
    root: string;
  };
  readonly socket: { planted: string[]; answers: string[]; serviceConnections: number; secretSeen: boolean };
  readonly fork: LimitOutcome;
  readonly memory: LimitOutcome;
  readonly diskTmp: LimitOutcome;
  readonly diskApp: LimitOutcome;
  readonly cpu: LimitOutcome;
}

/** Runs every attack (test/support/sandbox-attacks.ts) from a host process running as `uid`. */
function attacksAs(uid: number): Promise<AttackReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/sandbox-attacks.ts'], {
      cwd: ROOT,
      uid,
      gid: uid,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => {
      const line = /^REPORT (.*)$/m.exec(stdout);
      if (!line) return reject(new Error(`the attacks did not report (exit ${code}):\n${stderr.slice(-4000)}`));
      resolve(JSON.parse(line[1]!) as AttackReport);
    });
  });
}

const identities = process.getuid?.() === 0 ? [0, ORDINARY] : [process.getuid?.() ?? ORDINARY];

/**
 * Each identity's report. Both runs start with the first suite: they spend most of their time
 * waiting on the races and the limits' watchers, not on the CPU, so side by side they take the time of one.
 */
let reports: Map<number, Promise<AttackReport>> | null = null;
const reportOf = (uid: number): Promise<AttackReport> => {
  reports ??= new Map(identities.map((each) => [each, attacksAs(each)] as const));
  // Failures are read by the suite that waits for them; the other's must not go unhandled meanwhile.
  for (const each of reports.values()) each.catch(() => undefined);
  return reports.get(uid)!;
};

for (const uid of identities) {
  describe(`an app owner's attacks on the local sandbox, with Porter running as ${uid === 0 ? 'root' : 'an ordinary user'}`, function () {
    this.timeout(600_000);
    let report: AttackReport;

    before(async function () {
      if (!bubblewrapSupport().available) this.skip();
      report = await reportOf(uid);
    });

    it('graduating, editing and snapshotting while the app swaps its files for links: no host file is read into the app', () => {
      expect(report.swapsMounted.read, 'the app swapped its files during the race').to.be.greaterThan(0);
      expect(report.readLeaks).to.deep.equal([]);
    });

    it('writing and restoring into the app while it swaps a folder of its own for a link to a host folder: nothing lands in the host folder', () => {
      expect(report.swapsMounted.write, 'the app swapped its folder during the race').to.be.greaterThan(0);
      expect(report.writeLeaks).to.deep.equal([]);
    });

    it('the app runs as a host identity with no privileges, whatever Porter runs as', () => {
      expect(report.probe.hostUids.length).to.be.greaterThan(0);
      expect(report.probe.hostUids).to.not.include(0);
      if (uid !== 0) expect(new Set(report.probe.hostUids)).to.deep.equal(new Set([uid]));
    });

    it('/proc/sys is read-only to it, and it cannot make a user namespace of its own', () => {
      expect(report.probe.procSys.corePattern).to.not.equal(true);
      expect(report.probe.procSys.printk).to.not.equal(true);
      expect(report.probe.nestedUserNamespace).to.equal(false);
    });

    it('it sees only its own processes (pid 1 is its own server), so no other process memory is there to open', () => {
      const { processes } = report.probe;
      const byPid = new Map(processes.map((each) => [each.pid, each]));
      expect(byPid.get(1)?.cmdline).to.match(/server\.js$/);
      for (const each of processes) {
        let cursor = each;
        while (cursor.pid !== 1)
          cursor = byPid.get(cursor.ppid) ?? expect.fail(`${each.pid} (${each.cmdline}) descends from no process of the app`);
      }
      expect(processes.some((each) => /bwrap|gate/.test(each.cmdline))).to.equal(false);
    });

    it("/proc/self/mountinfo names none of the host's folders but Node's own install", () => {
      const { scratch, root } = report.probe;
      const mountinfo = report.probe.mountinfo
        .split('\n')
        .filter((line) => !NODE_HOME || !line.split(' ').slice(3, 5).includes(NODE_HOME))
        .join('\n');
      expect(mountinfo).to.not.contain(scratch);
      expect(mountinfo).to.not.contain(root);
      expect(mountinfo).to.not.contain(ROOT.replace(/\/$/, ''));
    });

    it("replacing the socket Porter reaches it through with a link to a host socket reaches nothing of the host's", () => {
      expect(report.socket.serviceConnections).to.equal(0);
      expect(report.socket.secretSeen).to.equal(false);
      expect(report.socket.answers.every((answer) => answer.includes('app_socket'))).to.equal(true);
    });

    for (const [attack, limit] of [
      ['fork', 'processes'],
      ['memory', 'memory'],
      ['diskTmp', 'disk'],
      ['diskApp', 'disk'],
      ['cpu', 'cpu'],
    ] as const) {
      it(`a ${attack} bomb is stopped for its ${limit} limit, the stop says why, and the host stays responsive`, () => {
        const outcome = report[attack];
        expect(outcome.result.stop?.limit, JSON.stringify(outcome.result)).to.equal(limit);
        expect(outcome.result.stop?.message).to.contain('The app was stopped');
        expect(outcome.result.listening).to.equal(false);
        expect(outcome.maxLagMs).to.be.lessThan(1000);
      });
    }
  });
}
