/**
 * A host that serves one app from a LocalSandbox and then waits to be killed: it prints `READY`
 * and the host pids of everything its sandbox runs. Started by `serversOfKilledHost`.
 * Arguments: the sandbox root, the LocalSandbox options (JSON), the app's egress policy (JSON).
 */
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import { startShApp } from './sandbox-apps.js';
import { processTree } from './process-tree.js';

const [root, options, egress] = process.argv.slice(2);
const sandbox = new LocalSandbox({ root: root!, startTimeoutMs: 10_000, ...JSON.parse(options ?? '{}') });
const session = await sandbox.open('app_left_behind', { egress: JSON.parse(egress ?? 'null') });
await session.writeFiles(startShApp('left behind'));
await session.start();
// start.sh's background helper is up once it wrote its pid; the tree is then whole.
await new Promise((resolve) => setTimeout(resolve, 300));
const tree = await processTree(session.sandboxPid!);
process.stdout.write(`READY ${tree.join(' ')}\n`);
setInterval(() => undefined, 60_000);
