import { endianness } from 'node:os';

/**
 * The seccomp filter an app server runs under inside bubblewrap (`bwrap --seccomp FD`, FD holding
 * the raw program: `struct sock_filter[]`, 8 bytes an instruction — u16 code, u8 jt, u8 jf, u32 k —
 * in the machine's byte order; bwrap reads the fd to its end, sets no_new_privs and loads it with
 * `prctl(PR_SET_SECCOMP)` last thing before it execs the app, so the app and everything it starts
 * run under it and cannot lift it).
 *
 * Why: the namespaces keep an app from seeing the host, but every system call still reaches the
 * host's one kernel. This filter takes away the calls a web server never makes and that are the
 * usual first step of an escape or a privilege escalation, so a kernel bug behind one of them is
 * out of an app's reach. It is a denylist (everything else is allowed): an app server is any
 * program `start.sh` runs, and Node, libuv, glibc's posix_spawn, `/bin/sh` and the common command
 * line tools must keep working — `clone`, `clone3`, `execve`, `mmap`, `mprotect`, `prctl`, `ioctl`
 * (but two requests), `seccomp` (a filter can only be tightened) all stay allowed.
 *
 * The program, in order:
 * 1. a call made under another ABI than the machine's own is refused (EPERM): on x86_64 the i386
 *    table (`int 0x80`, whose numbers mean other calls and would slip past every check below)
 *    and every x32 call (number with bit 30 set, same arch value); on arm64 the aarch32 table;
 * 2. the calls of DENIED (below) answer EPERM, as if the app lacked the privilege; io_uring's three
 *    answer ENOSYS, as on a kernel without it, so libuv quietly falls back to its thread pool;
 * 3. `ioctl(fd, TIOCSTI | TIOCLINUX)` answers EPERM: pushing characters into a terminal's input
 *    is how a sandboxed program types commands into the shell that started it (CVE-2017-5226 was
 *    exactly this in bubblewrap; TIOCLINUX is CVE-2023-1523). Only the request's low 32 bits are
 *    compared: the kernel truncates it to an unsigned int, so high bits cannot sneak past
 *    (Flatpak's CVE-2019-10063);
 * 4. everything else is allowed. The kernel (5.11+) sees that the answer for every call but
 *    `ioctl` depends on the call's number alone and caches "allow" per number, so allowed calls
 *    skip the program; what remains is seccomp's entry path (measured here: getppid 231-261 ns a
 *    call without the filter, 277-338 ns with it, perl's loop included).
 *
 * Not blocked, on purpose: `clone`/`clone3` with namespace flags (clone3's flags sit behind a
 * pointer a filter cannot read; bwrap's `--disable-userns` and the capabilities it drops already
 * refuse new namespaces), `personality` (Docker limits its values; under no_new_privs it gains
 * nothing), the NUMA calls on one's own memory (`mbind`, `get_mempolicy`, `set_mempolicy`, which
 * Flatpak denies but allocators and runtimes use), and calls the kernel no longer implements
 * (`nfsservctl`, `create_module`, `query_module`, …: they answer ENOSYS already).
 */
export type SeccompArch = 'x64' | 'arm64';

/** What a denied call answers (errno values are the same on x86_64 and arm64: asm-generic/errno*.h). */
const EPERM = 1;
const ENOSYS = 38;

export interface Denial {
  readonly name: string;
  readonly errno: typeof EPERM | typeof ENOSYS;
}

const eperm = (...names: string[]): Denial[] => names.map((name) => ({ name, errno: EPERM }));
const enosys = (...names: string[]): Denial[] => names.map((name) => ({ name, errno: ENOSYS }));

/**
 * The denied calls, grouped by the reason. Beyond the list every sandbox of this kind starts from
 * (Docker's default profile and Flatpak's blocklist agree on nearly all of it), two come from
 * Flatpak's list: `move_pages` and `migrate_pages`, which move another process's memory (a
 * ptrace-like reach, and Docker denies them too); and `open_tree_attr` (Linux 6.15), the mount
 * API's newest call, which Docker's allowlist does not know and so denies.
 */
export const DENIED: ReadonlyArray<Denial> = [
  // Reading, writing or steering another process: the way from one process into its neighbours.
  ...eperm('ptrace', 'process_vm_readv', 'process_vm_writev', 'process_madvise', 'pidfd_getfd', 'kcmp', 'move_pages', 'migrate_pages'),
  // Reshaping the filesystem bwrap built (the classic mount calls and the new mount API).
  ...eperm('mount', 'umount2', 'pivot_root', 'chroot', 'move_mount', 'open_tree', 'open_tree_attr'),
  ...eperm('fsopen', 'fsconfig', 'fsmount', 'fspick', 'mount_setattr'),
  // Joining or making namespaces: the door to the user-namespace kernel bugs.
  ...eperm('setns', 'unshare'),
  // The kernel keyring (not namespaced: keys are shared with the host's same uid).
  ...eperm('keyctl', 'add_key', 'request_key'),
  // Large kernel attack surfaces with a long record of local privilege escalations.
  ...eperm('bpf', 'perf_event_open', 'userfaultfd'),
  // The machine itself: modules, kexec, reboot, swap, process accounting, quotas, the kernel log.
  ...eperm('init_module', 'finit_module', 'delete_module', 'kexec_load', 'kexec_file_load', 'reboot'),
  ...eperm('swapon', 'swapoff', 'acct', 'quotactl', 'quotactl_fd', 'syslog'),
  // File handles open a file by inode, past every path check (Docker's "shocker" escape).
  ...eperm('open_by_handle_at', 'name_to_handle_at', 'lookup_dcookie'),
  // The controlling terminal and the clock, both shared with the host.
  ...eperm('vhangup', 'settimeofday', 'clock_settime', 'clock_adjtime', 'adjtimex'),
  // x86_64 only: raw port I/O, 16-bit segments (a history of kernel memory leaks), the a.out
  // loader and the removed binary sysctl.
  ...eperm('iopl', 'ioperm', 'modify_ldt', 'uselib', '_sysctl'),
  // io_uring: a second way into most of the kernel, past seccomp's view of each operation; ENOSYS
  // makes libuv use its thread pool as on a kernel without it.
  ...enosys('io_uring_setup', 'io_uring_enter', 'io_uring_register'),
];

/** Calls added since Linux 5.1 have one number on every architecture. */
const UNIFIED_NUMBERS = {
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  pidfd_getfd: 438,
  process_madvise: 440,
  mount_setattr: 442,
  quotactl_fd: 443,
  open_tree_attr: 467,
} as const;

/**
 * System call numbers, only those this filter names. x86_64: `/usr/include/x86_64-linux-gnu/asm/unistd_64.h`
 * (Debian's linux-libc-dev 6.1). arm64 has no table of its own: it uses the generic one,
 * `/usr/include/asm-generic/unistd.h` (same package), where `iopl`, `ioperm`, `modify_ldt`,
 * `uselib` and `_sysctl` do not exist (so arm64 needs no rule for them). `open_tree_attr` is newer
 * than those headers: Linux 6.15 gave it 467 on every architecture (numbers are shared from 424 on).
 */
export const SYSCALL_NUMBERS: Readonly<Record<SeccompArch, Readonly<Record<string, number>>>> = {
  x64: {
    ioctl: 16,
    ptrace: 101,
    syslog: 103,
    uselib: 134,
    vhangup: 153,
    modify_ldt: 154,
    pivot_root: 155,
    _sysctl: 156,
    adjtimex: 159,
    chroot: 161,
    acct: 163,
    settimeofday: 164,
    mount: 165,
    umount2: 166,
    swapon: 167,
    swapoff: 168,
    reboot: 169,
    iopl: 172,
    ioperm: 173,
    init_module: 175,
    delete_module: 176,
    quotactl: 179,
    lookup_dcookie: 212,
    clock_settime: 227,
    kexec_load: 246,
    add_key: 248,
    request_key: 249,
    keyctl: 250,
    migrate_pages: 256,
    unshare: 272,
    move_pages: 279,
    perf_event_open: 298,
    name_to_handle_at: 303,
    open_by_handle_at: 304,
    clock_adjtime: 305,
    setns: 308,
    process_vm_readv: 310,
    process_vm_writev: 311,
    kcmp: 312,
    finit_module: 313,
    kexec_file_load: 320,
    bpf: 321,
    userfaultfd: 323,
    ...UNIFIED_NUMBERS,
  },
  arm64: {
    lookup_dcookie: 18,
    ioctl: 29,
    umount2: 39,
    mount: 40,
    pivot_root: 41,
    chroot: 51,
    vhangup: 58,
    quotactl: 60,
    acct: 89,
    unshare: 97,
    kexec_load: 104,
    init_module: 105,
    delete_module: 106,
    clock_settime: 112,
    syslog: 116,
    ptrace: 117,
    reboot: 142,
    settimeofday: 170,
    adjtimex: 171,
    add_key: 217,
    request_key: 218,
    keyctl: 219,
    swapon: 224,
    swapoff: 225,
    migrate_pages: 238,
    move_pages: 239,
    perf_event_open: 241,
    name_to_handle_at: 264,
    open_by_handle_at: 265,
    clock_adjtime: 266,
    setns: 268,
    process_vm_readv: 270,
    process_vm_writev: 271,
    kcmp: 272,
    finit_module: 273,
    bpf: 280,
    userfaultfd: 282,
    kexec_file_load: 294,
    ...UNIFIED_NUMBERS,
  },
};

/** `seccomp_data.arch` of the machine's own ABI (linux/audit.h: EM_* | 64-bit | little-endian). */
const AUDIT_ARCH: Readonly<Record<SeccompArch, number>> = { x64: 0xc000003e, arm64: 0xc00000b7 };

/** On x86_64 an x32 call is a native-arch call with this bit set in its number. */
const X32_SYSCALL_BIT = 0x40000000;

/** Terminal requests (asm-generic/ioctls.h, the same on both). */
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;

/** Where `struct seccomp_data` keeps what the filter reads. */
const DATA = { nr: 0, arch: 4, args: 16 } as const;

// Classic BPF opcodes (linux/bpf_common.h) and seccomp's answers (linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;

/** The calls denied on an architecture, with their numbers there (a call it lacks needs no rule). */
export function seccompDenials(arch: SeccompArch): Array<Denial & { readonly nr: number }> {
  const numbers = SYSCALL_NUMBERS[arch];
  return DENIED.flatMap((denial) => (numbers[denial.name] === undefined ? [] : [{ ...denial, nr: numbers[denial.name]! }]));
}

/**
 * The program for `bwrap --seccomp FD`, for Node's `process.arch` names; null on an architecture
 * (or a big-endian machine) it does not cover, where the caller runs without the filter.
 */
export function seccompFilter(arch: string = process.arch): Buffer | null {
  if (!isCovered(arch) || endianness() !== 'LE') return null;
  const program = new Assembler();
  program.load(DATA.arch);
  program.jumpUnless(AUDIT_ARCH[arch], 'deny:1');
  program.load(DATA.nr);
  if (arch === 'x64') program.jumpIfAtLeast(X32_SYSCALL_BIT, 'deny:1');
  for (const denial of seccompDenials(arch)) program.jumpIf(denial.nr, `deny:${denial.errno}`);
  program.jumpUnless(SYSCALL_NUMBERS[arch].ioctl!, 'allow');
  program.load(DATA.args + 8); // args[1], the request: its low 32 bits (little-endian)
  program.jumpIf(TIOCSTI, 'deny:1');
  program.jumpIf(TIOCLINUX, 'deny:1');
  program.label('allow');
  program.ret(RET_ALLOW);
  program.label('deny:1');
  program.ret(RET_ERRNO | EPERM);
  program.label('deny:38');
  program.ret(RET_ERRNO | ENOSYS);
  return program.assemble();
}

function isCovered(arch: string): arch is SeccompArch {
  return arch === 'x64' || arch === 'arm64';
}

interface Instruction {
  readonly code: number;
  readonly k: number;
  /** Where a conditional jump goes when it holds / does not: a label, or the next instruction. */
  readonly whenTrue?: string;
  readonly whenFalse?: string;
}

/** Just enough of a classic BPF assembler: forward jumps to labels, resolved once at the end. */
class Assembler {
  private readonly instructions: Instruction[] = [];
  private readonly labels = new Map<string, number>();

  load(offset: number): void {
    this.instructions.push({ code: LD_W_ABS, k: offset });
  }
  jumpIf(value: number, to: string): void {
    this.instructions.push({ code: JEQ_K, k: value, whenTrue: to });
  }
  jumpUnless(value: number, to: string): void {
    this.instructions.push({ code: JEQ_K, k: value, whenFalse: to });
  }
  jumpIfAtLeast(value: number, to: string): void {
    this.instructions.push({ code: JGE_K, k: value, whenTrue: to });
  }
  ret(value: number): void {
    this.instructions.push({ code: RET_K, k: value });
  }
  label(name: string): void {
    this.labels.set(name, this.instructions.length);
  }

  assemble(): Buffer {
    const bytes = Buffer.alloc(this.instructions.length * 8);
    this.instructions.forEach((instruction, at) => {
      bytes.writeUInt16LE(instruction.code, at * 8);
      bytes.writeUInt8(this.offset(instruction.whenTrue, at), at * 8 + 2);
      bytes.writeUInt8(this.offset(instruction.whenFalse, at), at * 8 + 3);
      bytes.writeUInt32LE(instruction.k >>> 0, at * 8 + 4);
    });
    return bytes;
  }

  /** A jump's distance: instructions skipped after this one (cBPF jumps forward only, by a byte). */
  private offset(label: string | undefined, at: number): number {
    if (label === undefined) return 0;
    const target = this.labels.get(label);
    if (target === undefined || target <= at || target - at - 1 > 0xff) throw new Error(`seccomp filter: jump to ${label} out of reach`);
    return target - at - 1;
  }
}
