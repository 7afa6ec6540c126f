import { spawnSync } from 'node:child_process';
import { accessSync, constants, lstatSync, readlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * How an app server is contained on this machine:
 * - `bubblewrap` (default): under Debian's `bwrap` (the tool Flatpak uses), as an unprivileged user
 *   of its own, in mount, PID, IPC, UTS and network namespaces of its own, seeing only its folder at
 *   `/app`, the system's `/usr` read-only and a synthetic `/etc`;
 * - `none`: a plain child process of the host, as the host's user, seeing the host's files. For
 *   development on a machine without bubblewrap, and only when the host says so.
 */
export type Containment = 'bubblewrap' | 'none';

/** The identity an app runs as inside its sandbox (the conventional `nobody`). */
export const SANDBOX_UID = 65534;

/** Where things appear inside the sandbox. */
export const INSIDE = {
  app: '/app',
  gate: '/run/porter/gate.cjs',
  preload: '/run/porter/egress-preload.cjs',
  sockets: '/run/porter/net',
} as const;

export type BubblewrapSupport =
  { readonly available: true; readonly bwrap: string } | { readonly available: false; readonly reason: string };

const PROBE_TIMEOUT_MS = 5000;
const probed = new Map<string, BubblewrapSupport>();

/** What a host is told to do when containment is unavailable. */
export const INSTALL_BUBBLEWRAP =
  "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow unprivileged user namespaces, or — on a development machine only — set sandbox: {kind: 'local', containment: 'none'}";

/**
 * Whether `bwrap` exists here and may make the namespaces a sandbox needs (a kernel or container
 * may refuse unprivileged user namespaces): a trial run of `true` with the same unshare flags.
 * Asked once per path for the life of the process.
 */
export function bubblewrapSupport(given?: string): BubblewrapSupport {
  if (process.platform !== 'linux') return { available: false, reason: `bubblewrap is Linux only (this is ${process.platform})` };
  const bwrap = given ?? ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'].find(executable);
  if (!bwrap || !executable(bwrap)) return { available: false, reason: 'the bwrap command (bubblewrap) was not found' };
  const known = probed.get(bwrap);
  if (known) return known;
  const trial = spawnSync(bwrap, [...NAMESPACE_FLAGS, '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'], {
    env: {},
    timeout: PROBE_TIMEOUT_MS,
    encoding: 'utf8',
  });
  const support: BubblewrapSupport =
    trial.status === 0 && !trial.error
      ? { available: true, bwrap }
      : {
          available: false,
          reason: `\`${bwrap}\` could not create its namespaces (${(trial.stderr || trial.error?.message || `exit ${trial.status}`).trim()})`,
        };
  probed.set(bwrap, support);
  return support;
}

/**
 * A user namespace where the app is `nobody` (no capability outside it), and its own PID (it sees
 * only its own processes), IPC, UTS and network namespaces (bwrap brings up an empty loopback; the
 * namespace gate is the only way out). `--die-with-parent`: the sandbox ends with the host.
 */
const NAMESPACE_FLAGS: ReadonlyArray<string> = [
  '--unshare-user',
  '--uid',
  String(SANDBOX_UID),
  '--gid',
  String(SANDBOX_UID),
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-cgroup-try',
  '--unshare-net',
  '--die-with-parent',
];

export interface BubblewrapPlaces {
  /** The app's folder on the host: `/app` inside, read-write. */
  readonly app: string;
  /** The synthetic `/etc` (see writeSyntheticEtc). */
  readonly etc: string;
  /** The namespace link's socket folder: `/run/porter/net` inside. */
  readonly sockets: string;
  /** The gate program and the egress preload on the host, bound read-only. */
  readonly gate: string;
  readonly preload: string;
}

/**
 * The argv (after `bwrap`) that runs `command` contained. The root is an empty tmpfs; only what is
 * bound exists: the system's `/usr` (node, its libraries, `/bin/sh` for start.sh) and the usual
 * top-level links into it, Node's own install when it lives elsewhere, all read-only; a fresh
 * `/proc`, a minimal `/dev`, a private `/tmp`; the synthetic `/etc`; and the app's folder.
 */
export function bubblewrapArgs(places: BubblewrapPlaces, command: ReadonlyArray<string>): string[] {
  const args = [...NAMESPACE_FLAGS, '--clearenv', '--hostname', 'porter-app', '--ro-bind', '/usr', '/usr'];
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) args.push(...systemLink(top));
  const nodeHome = dirname(dirname(process.execPath));
  if (!process.execPath.startsWith('/usr/')) args.push('--ro-bind', nodeHome, nodeHome);
  args.push('--ro-bind', places.etc, '/etc');
  if (exists('/etc/ssl/certs')) args.push('--ro-bind', '/etc/ssl/certs', '/etc/ssl/certs');
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  args.push('--ro-bind', places.gate, INSIDE.gate, '--ro-bind', places.preload, INSIDE.preload, '--bind', places.sockets, INSIDE.sockets);
  args.push('--bind', places.app, INSIDE.app, '--chdir', INSIDE.app, '--', ...command);
  return args;
}

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

/**
 * The `/etc` an app sees: its own user and group, localhost, and an empty folder for the public CA
 * certificates to be bound onto. Nothing of the host's `/etc` (its users among them).
 */
export async function writeSyntheticEtc(folder: string): Promise<void> {
  await mkdir(join(folder, 'ssl', 'certs'), { recursive: true });
  const files: Record<string, string> = {
    passwd: `app:x:${SANDBOX_UID}:${SANDBOX_UID}:Porter app:/app:/bin/sh\n`,
    group: `app:x:${SANDBOX_UID}:\n`,
    hosts: '127.0.0.1 localhost\n::1 localhost\n',
    'nsswitch.conf': 'passwd: files\ngroup: files\nhosts: files\n',
    hostname: 'porter-app\n',
  };
  for (const [name, content] of Object.entries(files)) await writeFile(join(folder, name), content);
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
