import { spawnSync } from 'node:child_process';
import { accessSync, constants, lstatSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { defined } from '../../../domain/defined.js';

/**
 * How an app server is contained on this machine:
 * - `bubblewrap` (default): under Debian's `bwrap` (the tool Flatpak uses), in two nested sandboxes
 *   (see below), as a host identity with no privileges, seeing only its own files;
 * - `none`: a plain child process of the host, as the host's user, seeing the host's files. For
 *   development on a machine without bubblewrap, and only when the host says so.
 */
export type Containment = 'bubblewrap' | 'none';

/** The identity an app runs as inside its sandbox (the conventional `nobody`), and the host identity a root host runs sandboxes as. */
export const SANDBOX_UID = 65534;

/** Where things appear inside the sandbox. */
export const INSIDE = {
  app: '/app',
  tmp: '/tmp',
  gate: '/run/porter/gate.cjs',
  preload: '/run/porter/egress-preload.cjs',
} as const;

/** The host identity that sandboxes are started as: the host's own, or, for a root host, an unprivileged one. */
export interface HostIdentity {
  readonly uid: number;
  readonly gid: number;
}

export type BubblewrapSupport =
  | { readonly available: true; readonly bwrap: string; readonly prlimit: string; readonly nice: string | null }
  | { readonly available: false; readonly reason: string };

const PROBE_TIMEOUT_MS = 5000;
const probed = new Map<string, BubblewrapSupport>();

/** What a host is told to do when containment is unavailable. */
export const INSTALL_BUBBLEWRAP =
  "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow unprivileged user namespaces, or — on a development machine only — set sandbox: {kind: 'local', containment: 'none'}";

/**
 * Whether this machine can contain apps the way the local sandbox does: `bwrap` and util-linux
 * `prlimit` present, and a trial of the real shape (a sandbox, a nested one inside it that runs this
 * Node) succeeding as `identity` — a kernel or container may refuse user namespaces, and a root
 * host's Node may live where the unprivileged identity cannot reach it. Asked once per setting.
 */
export function bubblewrapSupport(given?: string, identity: HostIdentity | null = defaultIdentity()): BubblewrapSupport {
  if (process.platform !== 'linux') return { available: false, reason: `bubblewrap is Linux only (this is ${process.platform})` };
  const bwrap = given ?? ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'].find(executable);
  if (!bwrap || !executable(bwrap)) return { available: false, reason: 'the bwrap command (bubblewrap) was not found' };
  const prlimit = ['/usr/bin/prlimit', '/bin/prlimit'].find(executable);
  if (!prlimit) return { available: false, reason: 'the prlimit command (util-linux) was not found; it sets each app’s limits' };
  const key = `${bwrap}\0${identity?.uid}\0${identity?.gid}`;
  const known = probed.get(key);
  if (known) return known;
  const inner = [bwrap, ...innerFlags(), ...systemBinds(), '--proc', '/proc', '--dev', '/dev', '--', process.execPath, '--version'];
  // The nested bwrap builds its root under /tmp, as the real one does.
  const outer = [...outerFlags(), ...systemBinds(), '--proc', '/proc', '--dev', '/dev', '--tmpfs', INSIDE.tmp];
  const trial = spawnSync(bwrap, [...outer, '--', ...inner], {
    env: {},
    cwd: '/',
    timeout: PROBE_TIMEOUT_MS,
    encoding: 'utf8',
    ...defined({ uid: identity?.uid, gid: identity?.gid }),
  });
  const who = identity ? ` as uid ${identity.uid}` : '';
  const support: BubblewrapSupport =
    trial.status === 0 && !trial.error
      ? { available: true, bwrap, prlimit, nice: ['/usr/bin/nice', '/bin/nice'].find(executable) ?? null }
      : {
          available: false,
          reason: `\`${bwrap}\` could not make an app sandbox${who} (${(trial.stderr || trial.error?.message || `exit ${trial.status}`).trim()})`,
        };
  probed.set(key, support);
  return support;
}

/** A root host starts sandboxes as `nobody`; any other host as itself (it has nothing to give away). */
export function defaultIdentity(): HostIdentity | null {
  return process.getuid?.() === 0 ? { uid: SANDBOX_UID, gid: SANDBOX_UID } : null;
}

/**
 * The gate's sandbox: a user namespace where everything is `nobody` (no capability outside it),
 * and PID, IPC, UTS and network namespaces of its own (bwrap brings up an empty loopback; the gate
 * is the only way out). It may make the app's nested sandbox, so user namespaces stay possible here;
 * the app's own sandbox turns them off. `--die-with-parent`: the sandbox ends with the host;
 * `--new-session`: no terminal to push input into.
 */
function outerFlags(): string[] {
  return [...asNobody(), '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--unshare-net', ...tiedToHost()];
}

/**
 * The app's sandbox, inside the gate's: a nested user namespace (still `nobody`) where no further
 * one can be made, and a PID namespace where the app is pid 1 (`--as-pid-1`: no reaper of
 * bubblewrap's own), so `/proc` shows the app's processes and nothing else — not the gate, not an
 * init whose memory it could open. The network is the gate's.
 */
function innerFlags(): string[] {
  return [...asNobody(), '--unshare-pid', '--as-pid-1', '--disable-userns', ...tiedToHost()];
}

/** A user namespace of its own where everything runs as `nobody`. */
function asNobody(): string[] {
  return ['--unshare-user', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID)];
}

/** Ends with the process that started it, and has no terminal to push input into. */
function tiedToHost(): string[] {
  return ['--die-with-parent', '--new-session'];
}

/**
 * The system's `/usr` read-only (Node, its libraries, `/bin/sh` and `prlimit`), the usual
 * top-level links into it, and Node's own install when it lives elsewhere.
 */
function systemBinds(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) args.push(...systemLink(top));
  if (!process.execPath.startsWith('/usr/')) {
    const nodeHome = dirname(dirname(process.execPath));
    args.push('--ro-bind', nodeHome, nodeHome);
  }
  return args;
}

/** A file bwrap copies from a pipe into the sandbox's own root (read-only to everyone). */
export interface DataFile {
  readonly path: string;
  readonly content: string;
}

export interface GateSandbox {
  readonly args: string[];
  /** Written, in order, to fds 4, 5, … (fd 3 is the gate's channel); bwrap copies each into place. */
  readonly files: ReadonlyArray<DataFile>;
}

/**
 * The argv (after `bwrap`) of the gate's sandbox. Its root is an empty tmpfs and holds only: the
 * system binds, a fresh `/proc`, a minimal `/dev`, size-capped tmpfs for `/app` and `/tmp`, the
 * public CA certificates, and files copied in through pipes (the synthetic `/etc`, the gate, the
 * egress preload; mode 0444 on the sandbox's own tmpfs root). No folder of the host's own is bound: nothing in it has a host path, so
 * `/proc/self/mountinfo` names none, and no path inside leads back to the host.
 */
export function gateSandbox(scripts: { gate: string; preload: string }, tmpfsBytes: number): GateSandbox {
  const files: DataFile[] = [
    ...Object.entries(SYNTHETIC_ETC).map(([name, content]) => ({ path: `/etc/${name}`, content })),
    { path: INSIDE.gate, content: scripts.gate },
    { path: INSIDE.preload, content: scripts.preload },
  ];
  const args = [
    ...outerFlags(),
    '--clearenv',
    '--setenv',
    'NODE_CHANNEL_FD',
    '3',
    '--setenv',
    'NODE_CHANNEL_SERIALIZATION_MODE',
    'advanced',
    '--hostname',
    'porter-app',
    ...systemBinds(),
  ];
  // Copied into the sandbox's own root (not bound): the app's nested sandbox binds them again, and
  // a bind of bwrap's data files (deleted files) cannot be bound a second time.
  files.forEach((file, index) => args.push('--perms', '0444', '--file', String(4 + index), file.path));
  if (exists('/etc/ssl/certs')) args.push('--ro-bind', '/etc/ssl/certs', '/etc/ssl/certs');
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--size', String(tmpfsBytes), '--tmpfs', INSIDE.app, '--size', String(tmpfsBytes), '--tmpfs', INSIDE.tmp);
  args.push('--chdir', INSIDE.app, '--', process.execPath, INSIDE.gate);
  return { args, files };
}

/** App servers yield the CPU to the host (nice 10): a busy app slows itself down before Porter. */
const APP_NICENESS = '10';

/**
 * The argv the gate runs the app with: the nested bwrap (its seccomp filter on fd 3, which the gate
 * writes), then `nice`, then `prlimit` holding the app to its rlimits, then the boot command.
 */
export function appSandboxCommand(
  tools: { readonly bwrap: string; readonly prlimit: string; readonly nice: string | null },
  rlimits: ReadonlyArray<string>,
  boot: ReadonlyArray<string>,
): string[] {
  return [
    tools.bwrap,
    ...innerFlags(),
    ...systemBinds(),
    '--ro-bind',
    '/etc',
    '/etc',
    '--ro-bind',
    INSIDE.preload,
    INSIDE.preload,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--bind',
    INSIDE.app,
    INSIDE.app,
    '--bind',
    INSIDE.tmp,
    INSIDE.tmp,
    '--chdir',
    INSIDE.app,
    '--seccomp',
    '3',
    '--',
    ...(tools.nice ? [tools.nice, '-n', APP_NICENESS] : []),
    tools.prlimit,
    ...rlimits,
    '--',
    ...boot,
  ];
}

/**
 * The `/etc` an app sees: its own user and group, localhost, and nothing of the host's (its users
 * among them). The public CA certificates are bound beside it.
 */
const SYNTHETIC_ETC: Readonly<Record<string, string>> = {
  passwd: `app:x:${SANDBOX_UID}:${SANDBOX_UID}:Porter app:/app:/bin/sh\n`,
  group: `app:x:${SANDBOX_UID}:\n`,
  hosts: '127.0.0.1 localhost\n::1 localhost\n',
  'nsswitch.conf': 'passwd: files\ngroup: files\nhosts: files\n',
  hostname: 'porter-app\n',
};

/**
 * A top-level system folder as this host has it: a link into /usr (merged /usr) stays a link, a
 * real folder is bound read-only, an absent one stays absent.
 */
function systemLink(path: string): string[] {
  try {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) return ['--symlink', readlinkSync(path), path];
    if (info.isDirectory()) return ['--ro-bind', path, path];
  } catch {
    // not on this host
  }
  return [];
}

function executable(path: string): boolean {
  return succeeds(() => accessSync(path, constants.X_OK));
}

function exists(path: string): boolean {
  return succeeds(() => lstatSync(path));
}

/** Whether a filesystem probe returns: these calls answer no by throwing. */
function succeeds(probe: () => unknown): boolean {
  try {
    probe();
    return true;
  } catch {
    return false;
  }
}
