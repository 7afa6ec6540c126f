import { fileURLToPath } from 'node:url';

/** The preload every Node process of a policy-bound sandbox loads (see egress-preload.cjs). */
export const EGRESS_PRELOAD_PATH = fileURLToPath(new URL('./egress-preload.cjs', import.meta.url));

/**
 * The variables that send a sandbox's traffic through its egress proxy: the preload for Node
 * processes (also those a start.sh launches), and the conventional proxy variables for every other
 * client that honours them (curl, wget, Python, Go). NO_PROXY is emptied so nothing is exempt.
 * On their own they hold only cooperative code; in a network namespace (local adapter) they are
 * what lets cooperative code reach allowed domains, while the namespace stops everything else.
 * `preloadPath` is where the preload is seen by the app (bound elsewhere inside a bubblewrap sandbox).
 */
export function egressEnvironment(proxyAddress: string, preloadPath = EGRESS_PRELOAD_PATH): Record<string, string> {
  const proxyUrl = `http://${proxyAddress}`;
  const preload = preloadPath.includes(' ') ? `"${preloadPath}"` : preloadPath;
  return {
    PORTER_EGRESS_PROXY: proxyAddress,
    NODE_OPTIONS: `--require ${preload}`,
    HTTP_PROXY: proxyUrl,
    HTTPS_PROXY: proxyUrl,
    ALL_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    https_proxy: proxyUrl,
    all_proxy: proxyUrl,
    NO_PROXY: '',
    no_proxy: '',
  };
}
