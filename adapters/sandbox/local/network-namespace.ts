import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * How the local adapter holds an app to its egress policy:
 * - `namespace`: the server runs in a network namespace of its own whose only way out is the
 *   filtering proxy, so code that ignores proxy settings (a clean-environment child, curl
 *   --noproxy, raw sockets) reaches nothing;
 * - `cooperative`: the server shares the host's network and is steered to the proxy by a Node
 *   preload and the proxy variables, which code that ignores them can bypass.
 */
export type EgressIsolation = 'namespace' | 'cooperative';

/** The two commands a namespace needs: util-linux `unshare` and iproute2 `ip` (to bring loopback up). */
export interface NamespaceTools {
  readonly unshare: string;
  readonly ip: string;
}

export type NamespaceSupport =
  { readonly available: true; readonly tools: NamespaceTools } | { readonly available: false; readonly reason: string };

/**
 * An unprivileged network namespace: a user namespace first (mapping this user to root inside, whose
 * CAP_NET_ADMIN there may bring loopback up, and nothing outside it), then a network namespace with
 * nothing but that loopback.
 */
export const UNSHARE_FLAGS: ReadonlyArray<string> = ['--user', '--map-root-user', '--net'];

const PROBE_TIMEOUT_MS = 5000;
const probed = new Map<string, NamespaceSupport>();

/**
 * Whether this machine lets this user make such a namespace: Linux, both commands present, and a
 * trial `unshare … ip link set lo up` succeeding (a kernel or container may refuse user namespaces).
 * Asked once per pair of commands for the life of the process.
 */
export function namespaceSupport(given: Partial<NamespaceTools> = {}): NamespaceSupport {
  if (process.platform !== 'linux') return { available: false, reason: `network namespaces are Linux only (this is ${process.platform})` };
  const unshare = given.unshare ?? findCommand('unshare');
  const ip = given.ip ?? findCommand('ip');
  if (!unshare) return { available: false, reason: 'the unshare command (util-linux) was not found' };
  if (!ip) return { available: false, reason: 'the ip command (iproute2) was not found' };
  const key = `${unshare}\0${ip}`;
  const known = probed.get(key);
  if (known) return known;
  const trial = spawnSync(unshare, [...UNSHARE_FLAGS, '--', ip, 'link', 'set', 'lo', 'up'], {
    env: {},
    timeout: PROBE_TIMEOUT_MS,
    encoding: 'utf8',
  });
  const support: NamespaceSupport =
    trial.status === 0 && !trial.error
      ? { available: true, tools: { unshare, ip } }
      : {
          available: false,
          reason: `\`${unshare} ${UNSHARE_FLAGS.join(' ')}\` was refused (${(trial.stderr || trial.error?.message || `exit ${trial.status}`).trim()})`,
        };
  probed.set(key, support);
  return support;
}

/** An absolute path to an executable command: the PATH first, then where system tools live. */
function findCommand(name: string): string | null {
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin', '/usr/bin', '/bin'];
  for (const folder of folders) {
    if (!folder || !isAbsolute(folder)) continue;
    const path = join(folder, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return null;
}
