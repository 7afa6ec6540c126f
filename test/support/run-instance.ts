/**
 * One Porter instance as its own process, for the tests of runs that outlive their instance:
 * `node --import tsx test/support/run-instance.ts '<json options>'`. It serves Porter's wire on a
 * free loopback port over the given database with the scripted model and two tools:
 * `ledger_add` (write) appends a line to the ledger file, and `slow_check` (read) prints
 * `executing <runId>` and never returns when `hang` is set. The scripted model calls `ledger_add`,
 * then `slow_check`, then answers `all done`. It prints `listening <port>` once it serves, and runs
 * until it is stopped or killed.
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { z } from 'zod';
import { createPorter } from '../../composition/create-porter.js';
import { defineTool } from '../../application/tools/define-tool.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';

export interface RunInstanceOptions {
  readonly databaseUrl: string;
  readonly scheduler: 'external' | 'pg-boss';
  readonly ledger: string;
  readonly hang: boolean;
  readonly webhookSecret: string;
}

export const RUN_SCRIPT_TOOLS = ['ledger_add', 'slow_check'];
/** The webhook sources it accepts deliveries from (one automation each in the tests). */
export const RUN_SOURCES = ['orders', 'refunds'];

/** The script both the process and the test's own instance run: the ledger, then the check, then the answer. */
export function runScript(turn: { toolResults?: ReadonlyArray<{ tool: string }> }) {
  const last = turn.toolResults?.[turn.toolResults.length - 1]?.tool;
  if (!last) return { call: 'ledger_add', input: { entry: 'paid' } };
  if (last === 'ledger_add') return { call: 'slow_check', input: {} };
  return 'all done';
}

/** The two tools, recording into `ledger`; `slow_check` hangs when `hang` is set. */
export function runTools(ledger: string, hang: boolean) {
  return [
    defineTool({
      name: 'ledger_add',
      description: 'Adds an entry to the ledger',
      input: z.strictObject({ entry: z.string() }),
      risk: 'write',
      execute({ entry }, context) {
        appendFileSync(ledger, `${context.runId ?? ''} ${entry} ${process.pid}\n`);
        return { added: entry };
      },
    }),
    defineTool({
      name: 'slow_check',
      description: 'Checks slowly',
      input: z.strictObject({}),
      risk: 'read',
      async execute(_input, context) {
        if (hang) {
          console.log(`executing ${context.runId ?? ''}`);
          await new Promise(() => {});
        }
        return { checked: true };
      },
    }),
  ];
}

if (process.argv[1]?.endsWith('run-instance.ts')) {
  const options = JSON.parse(process.argv[2] ?? '{}') as RunInstanceOptions;
  const porter = await createPorter(
    {
      development: false,
      secret: 'a-production-secret-for-the-tests-0123456789',
      databaseUrl: options.databaseUrl,
      scheduler: options.scheduler,
      logger: 'warn',
      model: new ScriptedLanguageModel(runScript),
      tools: runTools(options.ledger, options.hang),
      webhooks: { sources: Object.fromEntries(RUN_SOURCES.map((source) => [source, { kind: 'standard', secret: options.webhookSecret }])) },
    },
    {},
  );
  const server = createServer(porter.listener);
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(`listening ${typeof address === 'object' && address ? address.port : 0} ${porter.mount}`);
  });
  const stop = () => {
    server.closeAllConnections();
    server.close(() => void porter.close().then(() => process.exit(0)));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
