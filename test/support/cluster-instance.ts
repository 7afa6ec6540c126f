/**
 * One instance of a Porter deployment, as its own process, for the cluster tests:
 * `node --import tsx test/support/cluster-instance.ts '<json options>'`. It serves Porter's wire at
 * `/api/porter` on a free loopback port over the given database, with the offline scripted model
 * (`/slow`, `/call`) and a `sleep {seconds}` read tool, signs people in from the `x-demo-user` header,
 * prints `listening <port>` once it serves, and runs until it is stopped (or killed).
 */
import { createServer } from 'node:http';
import { createPorter } from '../../composition/create-porter.js';
import { sleepTool } from './sleep-tool.js';
import { ScriptedLanguageModel, type ModelScript } from '../../adapters/model/scripted-language-model.js';
import { demoPrincipal } from '../../composition/dev-host/demo-principal.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';

export interface ClusterInstanceOptions {
  readonly databaseUrl: string;
  readonly concurrentTurns?: 'reject' | 'enqueue' | 'interrupt';
  readonly keepAliveSeconds?: number;
  /** Opts into giving up turns nobody reads on any instance after this many seconds (the `turnGraceSeconds` option). */
  readonly turnGraceSeconds?: number;
  /** Per-subject budgets (the `limits` option). */
  readonly limits?: Record<string, { max: number; windowSeconds: number }>;
  /** How many turns of one subject run at once (the `maxTurnsInFlight` option). */
  readonly maxTurnsInFlight?: number | false;
  /** Opens the MCP door as the development host does: every well-formed name a person, consent signed in from the demo cookie. */
  readonly door?: boolean;
}

const options = JSON.parse(process.argv[2] ?? '{}') as ClusterInstanceOptions;

const porter = await createPorter(
  {
    development: false,
    secret: 'a-cluster-secret-for-the-tests-0123456789',
    databaseUrl: options.databaseUrl,
    scheduler: 'external',
    logger: 'warn',
    model: new ScriptedLanguageModel(flaky()),
    tools: [sleepTool(120)],
    principal: demoPrincipal,
    ...(options.concurrentTurns ? { concurrentTurns: options.concurrentTurns } : {}),
    ...(options.keepAliveSeconds !== undefined ? { keepAliveSeconds: options.keepAliveSeconds } : {}),
    ...(options.turnGraceSeconds !== undefined ? { turnGraceSeconds: options.turnGraceSeconds } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.maxTurnsInFlight !== undefined ? { maxTurnsInFlight: options.maxTurnsInFlight } : {}),
    ...(options.door ? { mcp: true, oauth: developmentOAuth() } : {}),
  },
  {},
);
const server = createServer(porter.listener);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => void porter.close().then(() => process.exit(0)));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

/** `/flaky <text>`: the model fails the first time this instance asks it to answer that text, then answers as ever. */
function flaky(): ModelScript {
  const failed = new Set<string>();
  return (turn) => {
    if (!turn.text.startsWith('/flaky') || failed.has(turn.text)) return undefined;
    failed.add(turn.text);
    throw new Error('the provider is down');
  };
}
