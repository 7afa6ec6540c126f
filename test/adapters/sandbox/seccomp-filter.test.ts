import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import {
  DENIED,
  SYSCALL_NUMBERS,
  seccompDenials,
  seccompFilter,
  type SeccompArch,
} from '../../../adapters/sandbox/local/seccomp-filter.js';
import { bubblewrapSupport } from '../../../adapters/sandbox/local/bubblewrap-command.js';

// What the kernel defines, written out here rather than taken from the module under test.
const EPERM = 1;
const ENOSYS = 38;
const ALLOW = 0x7fff0000;
const ERRNO = 0x00050000;
const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7, i386: 0x40000003, arm: 0x40000028 } as const;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const FIONREAD = 0x541b;

/** Calls a server, libuv, glibc's posix_spawn, /bin/sh and the common tools make: they must stay allowed. */
const NEEDED: Record<SeccompArch, Record<string, number>> = {
  x64: {
    read: 0,
    write: 1,
    mmap: 9,
    mprotect: 10,
    socket: 41,
    connect: 42,
    getpid: 39,
    bind: 49,
    listen: 50,
    clone: 56,
    execve: 59,
    wait4: 61,
    kill: 62,
    personality: 135,
    prctl: 157,
    futex: 202,
    epoll_wait: 232,
    mbind: 237,
    openat: 257,
    accept4: 288,
    seccomp: 317,
    execveat: 322,
    pidfd_send_signal: 424,
    pidfd_open: 434,
    clone3: 435,
  },
  arm64: {
    epoll_pwait: 22,
    openat: 56,
    read: 63,
    write: 64,
    futex: 98,
    kill: 129,
    prctl: 167,
    getpid: 172,
    socket: 198,
    bind: 200,
    listen: 201,
    connect: 203,
    clone: 220,
    execve: 221,
    mmap: 222,
    mprotect: 226,
    mbind: 235,
    accept4: 242,
    wait4: 260,
    seccomp: 277,
    execveat: 281,
    pidfd_send_signal: 424,
    pidfd_open: 434,
    clone3: 435,
  },
};

/** `struct seccomp_data` as the filter sees it: numbers only (an argument is its 64-bit value). */
interface SeccompData {
  nr: number;
  arch: number;
  args?: ReadonlyArray<bigint>;
}

/**
 * Classic BPF as the kernel runs a seccomp program, for the instructions a filter may hold that
 * this one could use: 32-bit loads from seccomp_data, the K jumps, returns. Anything else, a load
 * outside seccomp_data or a jump out of the program throws.
 */
function run(program: Buffer, data: SeccompData): number {
  expect(program.length % 8).to.equal(0);
  const words = Buffer.alloc(64);
  words.writeInt32LE(data.nr, 0);
  words.writeUInt32LE(data.arch, 4);
  (data.args ?? []).forEach((arg, i) => words.writeBigUInt64LE(BigInt.asUintN(64, arg), 16 + 8 * i));
  let a = 0;
  for (let pc = 0; ; pc++) {
    if (pc * 8 >= program.length) throw new Error(`ran off the program at ${pc}`);
    const code = program.readUInt16LE(pc * 8);
    const [jt, jf, k] = [program.readUInt8(pc * 8 + 2), program.readUInt8(pc * 8 + 3), program.readUInt32LE(pc * 8 + 4)];
    if (code === 0x20) {
      if (k % 4 || k > 60) throw new Error(`load at ${k}`);
      a = words.readUInt32LE(k);
    } else if (code === 0x06) return k;
    else if (code === 0x05) pc += k;
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else if (code === 0x25) pc += a > k ? jt : jf;
    else if (code === 0x45) pc += a & k ? jt : jf;
    else throw new Error(`opcode 0x${code.toString(16)} at ${pc}`);
  }
}

/** `#define __NR_name number` lines of a kernel header (the generic table writes a few `__NR3264_name`). */
function headerNumbers(path: string): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const [, name, nr] of readFileSync(path, 'utf8').matchAll(/^#define __NR(?:3264)?_(\w+)\s+(\d+)\s*$/gm))
    numbers.set(name!, Number(nr));
  return numbers;
}

function skipBecause(context: Mocha.Context, reason: string): never {
  console.log(`      (skipped: ${reason})`);
  context.skip();
}

const ARCHES: SeccompArch[] = ['x64', 'arm64'];

describe('seccomp filter for the local sandbox', () => {
  describe('the program, run over synthetic seccomp_data', () => {
    for (const arch of ARCHES) {
      describe(arch, () => {
        const program = seccompFilter(arch)!;
        const native = AUDIT_ARCH[arch];

        it('is a whole number of 8-byte instructions the kernel accepts (at most 4096)', () => {
          expect(program.length % 8).to.equal(0);
          expect(program.length / 8).to.be.within(1, 4096);
        });

        it('denies every listed call with its errno: EPERM, and ENOSYS for io_uring', () => {
          const denials = seccompDenials(arch);
          for (const { name, nr } of denials) {
            const errno = name.startsWith('io_uring_') ? ENOSYS : EPERM;
            expect(run(program, { nr, arch: native }), name).to.equal(ERRNO | errno);
          }
          const names = denials.map((denial) => denial.name);
          expect(names).to.include.members(['ptrace', 'process_vm_readv', 'mount', 'unshare', 'bpf', 'io_uring_setup', 'open_tree_attr']);
          if (arch === 'x64') expect(names).to.include.members(['iopl', 'ioperm', 'modify_ldt', 'uselib', '_sysctl']);
          else expect(names).to.not.include.members(['iopl']);
        });

        it('allows what a server and its tools need (clone, clone3, execve, mmap, mprotect, prctl, …)', () => {
          for (const [name, nr] of Object.entries(NEEDED[arch])) expect(run(program, { nr, arch: native }), name).to.equal(ALLOW);
        });

        it('denies every call made under another ABI, whatever its number', () => {
          for (const other of [AUDIT_ARCH.i386, AUDIT_ARCH.arm, AUDIT_ARCH[arch === 'x64' ? 'arm64' : 'x64']]) {
            for (const nr of [0, 1, 20, 39, 172]) expect(run(program, { nr, arch: other })).to.equal(ERRNO | EPERM);
          }
        });

        it('refuses TIOCSTI and TIOCLINUX, whatever the high bits, and lets other ioctls through', () => {
          const ioctl = arch === 'x64' ? 16 : 29;
          for (const request of [TIOCSTI, TIOCLINUX, 0x1_0000_0000n + BigInt(TIOCSTI), 0xffff_ffff_0000_0000n + BigInt(TIOCLINUX)]) {
            expect(run(program, { nr: ioctl, arch: native, args: [0n, BigInt(request)] })).to.equal(ERRNO | EPERM);
          }
          for (const request of [FIONREAD, 0x5401 /* TCGETS */, 0x5413 /* TIOCGWINSZ */]) {
            expect(run(program, { nr: ioctl, arch: native, args: [0n, BigInt(request)] })).to.equal(ALLOW);
          }
        });
      });
    }

    it('on x86_64, denies every x32 call (number with bit 30 set), the allowed ones too', () => {
      const program = seccompFilter('x64')!;
      for (const nr of [0x40000000, 0x40000000 + 39, 0x40000000 + 59, 0x40000000 + 512, 0x7fffffff]) {
        expect(run(program, { nr, arch: AUDIT_ARCH.x64 })).to.equal(ERRNO | EPERM);
      }
    });

    it('is not made for an architecture it does not cover', () => {
      for (const arch of ['ia32', 'arm', 'riscv64', 's390x', 'ppc64', 'loong64']) expect(seccompFilter(arch), arch).to.equal(null);
    });
  });

  describe('the syscall tables', () => {
    it('match x86_64 numbers in this machine’s header (asm/unistd_64.h)', function () {
      const header = '/usr/include/x86_64-linux-gnu/asm/unistd_64.h';
      if (!existsSync(header)) skipBecause(this, `${header} is not here (apt-get install linux-libc-dev)`);
      const numbers = headerNumbers(header);
      const table = { ...SYSCALL_NUMBERS.x64, ...NEEDED.x64 };
      for (const [name, nr] of Object.entries(table)) {
        // A call newer than the header is checked by its number staying past the header's last.
        if (numbers.has(name)) expect(nr, name).to.equal(numbers.get(name));
        else expect(nr, `${name} (not in ${header})`).to.be.greaterThan(Math.max(...numbers.values()));
      }
    });

    it('match arm64 numbers in the generic table (asm-generic/unistd.h), which lacks the x86-only calls', function () {
      const header = '/usr/include/asm-generic/unistd.h';
      if (!existsSync(header)) skipBecause(this, `${header} is not here (apt-get install linux-libc-dev)`);
      const numbers = headerNumbers(header);
      numbers.delete('syscalls'); // __NR_syscalls, the table's length
      const table = { ...SYSCALL_NUMBERS.arm64, ...NEEDED.arm64 };
      for (const [name, nr] of Object.entries(table)) {
        if (numbers.has(name)) expect(nr, name).to.equal(numbers.get(name));
        else expect(nr, `${name} (not in ${header})`).to.be.greaterThan(Math.max(...numbers.values()));
      }
      for (const name of ['iopl', 'ioperm', 'modify_ldt', 'uselib', '_sysctl']) expect(numbers.has(name), name).to.equal(false);
    });

    it('name every denied call on both architectures but the five x86-only ones', () => {
      for (const { name } of DENIED) {
        expect(SYSCALL_NUMBERS.x64, name).to.have.property(name);
        if (!['iopl', 'ioperm', 'modify_ldt', 'uselib', '_sysctl'].includes(name))
          expect(SYSCALL_NUMBERS.arm64, name).to.have.property(name);
      }
    });
  });

  describe('under bubblewrap', function () {
    this.timeout(30_000);
    const support = bubblewrapSupport();
    const arch = process.arch === 'x64' || process.arch === 'arm64' ? process.arch : null;
    const perl = executable('/usr/bin/perl');

    before(function () {
      if (!support.available) skipBecause(this, support.reason);
      if (!arch) skipBecause(this, `the filter does not cover ${process.arch}`);
    });

    // Porter as whoever runs the tests (root on the CI machine) and Porter as an ordinary user:
    // bwrap runs unprivileged then.
    for (const identity of [
      { as: process.getuid?.() === 0 ? 'root' : 'the test runner', uid: undefined },
      { as: 'an ordinary user (uid 65534)', uid: 65534 },
    ] as const) {
      describe(`started by ${identity.as}`, () => {
        let probe: ProbeReport;
        let unfiltered: Record<string, string>;

        before(async function () {
          if (identity.uid !== undefined && process.getuid?.() !== 0) skipBecause(this, 'only root can start bwrap as another user');
          probe = parseReport(
            await sandboxed({ filter: true, uid: identity.uid, command: [process.execPath, '-e', PROBE, ...syscallRows()] }),
          );
          // The same raw calls without the filter: proof the probe can tell a denial from a pass.
          if (perl)
            unfiltered = perlRows(
              await sandboxed({ filter: false, uid: identity.uid, command: ['/usr/bin/perl', '-e', PERL_SYSCALLS, ...controlRows()] }),
            );
        });

        it('answers each denied call from inside with the filter’s errno (raw calls made by perl)', function () {
          if (!perl) skipBecause(this, '/usr/bin/perl (Debian perl-base) is not here');
          for (const { name, errno } of seccompDenials(arch!)) expect(probe.syscalls[name], name).to.equal(String(errno));
          expect(probe.syscalls['getpid'], 'getpid').to.match(/^ok/);
          expect(probe.syscalls['ioctl TIOCSTI']).to.equal(String(EPERM));
          expect(probe.syscalls['ioctl TIOCSTI, high bits set']).to.equal(String(EPERM));
          expect(probe.syscalls['ioctl TIOCLINUX']).to.equal(String(EPERM));
          expect(probe.syscalls['ioctl FIONREAD']).to.not.equal(String(EPERM));
          if (arch === 'x64') expect(probe.syscalls['x32 getpid']).to.equal(String(EPERM));
        });

        it('and without the filter the same calls get through (or fail for another reason)', function () {
          if (!perl) skipBecause(this, '/usr/bin/perl (Debian perl-base) is not here');
          expect(unfiltered['ptrace']).to.not.be.oneOf([undefined, String(EPERM)]);
          expect(unfiltered['process_vm_readv']).to.match(/^ok/);
          expect(unfiltered['unshare']).to.match(/^ok/);
          expect(unfiltered['ioctl TIOCSTI']).to.not.be.oneOf([undefined, String(EPERM)]);
          if (arch === 'x64') expect(unfiltered['x32 getpid']).to.not.be.oneOf([undefined, String(EPERM)]);
        });

        it('refuses new namespaces and mounts: `unshare -U`, `unshare -m` and `mount` fail with EPERM', () => {
          // Without the filter `unshare -U` fails too, but with ENOSPC (bwrap's --disable-userns).
          expect(probe.unshareUser).to.include({ status: 1 }).and.property('out').to.include('Operation not permitted');
          expect(probe.unshareMount).to.include({ status: 1 }).and.property('out').to.include('Operation not permitted');
          expect(probe.mount.status).to.not.equal(0);
        });

        it('refuses ptrace to a debugger: `strace -f true` fails with EPERM', function () {
          if (probe.strace === null) skipBecause(this, '/usr/bin/strace is not here (apt-get install strace)');
          expect(probe.strace.status).to.not.equal(0);
          expect(probe.strace.out).to.match(/PTRACE_TRACEME.*Operation not permitted/);
        });

        it('keeps a Node server working: listen, fetch on loopback, child processes, signals, workers, files, /bin/sh, npm', () => {
          expect(probe.errors).to.deep.equal([]);
          expect(probe.listen).to.equal(0);
          expect(probe.fetch).to.equal('hello from inside');
          expect(probe.spawnedAndKilled).to.equal('SIGTERM');
          expect(probe.worker).to.equal(42);
          expect(probe.file).to.equal('written and read back');
          expect(probe.sh).to.deep.equal({ status: 0, out: 'hi' });
          expect(probe.tools.status).to.equal(0);
          expect(probe.tools.out).to.match(/^usr has \d+ entries$/);
          if (probe.npm !== null) expect(probe.npm.status, probe.npm.out).to.equal(0);
        });

        it('on x86_64, refuses an i386 call (`int 0x80`) that works without the filter', async function () {
          if (arch !== 'x64') skipBecause(this, 'int 0x80 is x86 only');
          const int80 = compileInt80Probe();
          if (!int80) skipBecause(this, 'no C compiler (cc) to build the int 0x80 probe');
          try {
            const bind = ['--ro-bind', int80.dir, '/probe'];
            const without = await sandboxed({ filter: false, uid: identity.uid, bind, command: ['/probe/int80'] });
            if (!/^\d+$/.test(without.stdout.trim()))
              skipBecause(this, `this kernel runs no i386 calls (${without.stdout}${without.stderr})`);
            const within = await sandboxed({ filter: true, uid: identity.uid, bind, command: ['/probe/int80'] });
            expect(within.stdout.trim()).to.equal(String(-EPERM));
          } finally {
            rmSync(int80.dir, { recursive: true, force: true });
          }
        });
      });
    }

    it('bwrap refuses a program that is not whole instructions (the format is raw 8-byte sock_filter)', async () => {
      const result = await sandboxed({ filter: Buffer.alloc(12), command: ['/bin/true'] });
      expect(result.status).to.not.equal(0);
      expect(result.stderr).to.include('multiple of 8');
    });
  });
});

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` under the brief's bwrap line, the program handed over on fd 3 as Porter will: a
 * pipe the parent writes and closes (bwrap reads it to its end before it starts the command).
 */
function sandboxed(options: {
  filter: boolean | Buffer;
  command: ReadonlyArray<string>;
  uid?: number | undefined;
  bind?: ReadonlyArray<string>;
}): Promise<Outcome> {
  const { bwrap } = bubblewrapSupport() as { bwrap: string };
  const nodeHome = dirname(dirname(process.execPath));
  const args = [
    ...['--unshare-user', '--uid', '65534', '--gid', '65534', '--unshare-pid', '--unshare-net', '--disable-userns', '--die-with-parent'],
    ...['--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64'],
    ...(process.execPath.startsWith('/usr/') ? [] : ['--ro-bind', nodeHome, nodeHome]),
    ...['--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp'],
    ...(options.bind ?? []),
    ...(options.filter ? ['--seccomp', '3'] : []),
    '--',
    ...options.command,
  ];
  const child = spawn(bwrap, args, {
    env: { PATH: '/usr/bin:/bin', HOME: '/tmp' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  const program = options.filter === true ? seccompFilter()! : options.filter || Buffer.alloc(0);
  const fd3 = child.stdio[3] as Writable;
  fd3.on('error', () => undefined); // bwrap may refuse before it reads
  fd3.end(program);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Raw system calls from inside, through perl's `syscall` (perl-base is Essential on Debian, so it
 * is wherever bwrap is): each argument `name:nr:arg…` prints `name errno`, or `name ok=value`.
 */
const PERL_SYSCALLS = String.raw`for my $c (@ARGV) { my ($name, $nr, @args) = split /:/, $c; $! = 0; my $r = syscall($nr + 0, map { $_ + 0 } @args); print "$name\t", ($r == -1 ? 0 + $! : "ok=$r"), "\n"; }`;

/**
 * Every denied call with zero arguments (ptrace asks PEEKDATA of no one: without the filter it
 * fails ESRCH and traces nothing), plus calls the filter must tell apart. Zero arguments are safe
 * even should a call get through: the sandbox holds no capability.
 */
function syscallRows(): string[] {
  const numbers = SYSCALL_NUMBERS[process.arch as SeccompArch];
  const rows = seccompDenials(process.arch as SeccompArch).map(({ name, nr }) =>
    name === 'ptrace' ? `${name}:${nr}:2:0:0:0` : `${name}:${nr}:0:0:0:0:0:0`,
  );
  rows.push(`getpid:${NEEDED[process.arch as SeccompArch].getpid}`);
  rows.push(...ioctlRows(numbers.ioctl!));
  if (process.arch === 'x64') rows.push(`x32 getpid:${0x40000000 + 39}`);
  return rows;
}

function ioctlRows(ioctl: number): string[] {
  return [
    `ioctl TIOCSTI:${ioctl}:0:${TIOCSTI}:0`,
    `ioctl TIOCSTI, high bits set:${ioctl}:0:${0x1_0000_0000 + TIOCSTI}:0`,
    `ioctl TIOCLINUX:${ioctl}:0:${TIOCLINUX}:0`,
    `ioctl FIONREAD:${ioctl}:0:${FIONREAD}:0`,
  ];
}

/** The calls the unfiltered control makes: only those harmless when they go through. */
function controlRows(): string[] {
  const wanted = new Set(['ptrace', 'process_vm_readv', 'unshare', 'ioctl TIOCSTI', 'x32 getpid']);
  return syscallRows().filter((row) => wanted.has(row.split(':')[0]!));
}

function perlRows(outcome: Outcome): Record<string, string> {
  if (outcome.status !== 0) throw new Error(`perl probe exited ${outcome.status}: ${outcome.stderr}`);
  return Object.fromEntries(
    outcome.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t') as [string, string]),
  );
}

interface Ran {
  status: number | null;
  out: string;
}

interface ProbeReport {
  errors: string[];
  syscalls: Record<string, string>;
  unshareUser: Ran;
  unshareMount: Ran;
  mount: Ran;
  strace: Ran | null;
  npm: Ran | null;
  sh: Ran;
  tools: Ran;
  listen: number | null;
  fetch: string;
  spawnedAndKilled: string | null;
  worker: number;
  file: string;
}

function parseReport(outcome: Outcome): ProbeReport {
  try {
    return JSON.parse(outcome.stdout) as ProbeReport;
  } catch {
    throw new Error(`the probe exited ${outcome.status} without a report:\n${outcome.stdout}\n${outcome.stderr}`);
  }
}

/**
 * What runs inside (`node -e PROBE rows…`): the raw calls through perl, the tools an escape would
 * reach for, and what a server does every day. One JSON report on stdout; nothing waits on time.
 */
const PROBE = String.raw`
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, promises: fs } = require('node:fs');
const http = require('node:http');
const { Worker } = require('node:worker_threads');
const PERL = ${JSON.stringify(PERL_SYSCALLS)};
const ran = (command, args) => {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  return { status: r.status, out: ((r.stdout || '') + (r.stderr || '') || String(r.error || '')).trim() };
};
const report = { errors: [] };
const step = async (name, work) => {
  try { report[name] = await work(); } catch (error) { report.errors.push(name + ': ' + error.message); }
};
(async () => {
  await step('syscalls', () => {
    if (!existsSync('/usr/bin/perl')) return {};
    const perl = ran('/usr/bin/perl', ['-e', PERL, ...process.argv.slice(1)]);
    return Object.fromEntries(perl.out.split('\n').map((line) => line.split('\t')));
  });
  await step('unshareUser', () => ran('unshare', ['-U', 'true']));
  await step('unshareMount', () => ran('unshare', ['-m', 'true']));
  await step('mount', () => ran('mount', ['-t', 'tmpfs', 'x', '/tmp']));
  await step('strace', () => (existsSync('/usr/bin/strace') ? ran('strace', ['-f', 'true']) : null));
  await step('sh', () => ran('/bin/sh', ['-c', 'echo hi']));
  await step('tools', () => ran('/bin/sh', ['-c', 'ls /usr | wc -l | sed "s/^/usr has /; s/$/ entries/" | grep entries']));
  await step('npm', () => (existsSync('/usr/bin/npm') ? ran('npm', ['--version']) : null));
  await step('listen', () => ran(process.execPath, ['-e', "require('http').createServer().listen(0, () => process.exit(0))"]).status);
  await step('fetch', async () => {
    const server = http.createServer((request, response) => response.end('hello from inside'));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      return await (await fetch('http://127.0.0.1:' + server.address().port + '/')).text();
    } finally {
      server.close();
    }
  });
  await step('spawnedAndKilled', () => new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('spawn', () => child.kill('SIGTERM'));
    child.once('exit', (code, signal) => resolve(signal));
  }));
  await step('worker', () => new Promise((resolve, reject) => {
    const worker = new Worker('require("node:worker_threads").parentPort.postMessage(6 * 7)', { eval: true });
    worker.once('message', (answer) => { resolve(answer); worker.terminate(); });
    worker.once('error', reject);
  }));
  await step('file', async () => {
    await fs.writeFile('/tmp/probe.txt', 'written and read back');
    return fs.readFile('/tmp/probe.txt', 'utf8');
  });
  process.stdout.write(JSON.stringify(report));
})();
`;

/** A tiny x86_64 program making getpid through the i386 table: prints the pid, or -errno. */
function compileInt80Probe(): { dir: string } | null {
  const cc = ['/usr/bin/cc', '/usr/bin/gcc'].find(executable);
  if (!cc) return null;
  const dir = mkdtempSync(join(tmpdir(), 'porter-seccomp-int80-'));
  chmodSync(dir, 0o755); // readable by the unprivileged run too
  writeFileSync(
    join(dir, 'int80.c'),
    '#include <stdio.h>\nint main(void) { long r; __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory"); printf("%ld\\n", r); return 0; }\n',
  );
  const built = spawnSync(cc, ['-O1', '-o', join(dir, 'int80'), join(dir, 'int80.c')], { encoding: 'utf8' });
  if (built.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return { dir };
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
