import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { get } from '../../composition/tokens.js';
import { AUTOMATION_TOKENS } from '../../composition/modules/automations-tokens.js';
import { GUARD_TOKENS } from '../../composition/modules/guard-tokens.js';
import { RUN_TOKENS } from '../../composition/modules/runs-tokens.js';
import { containerOf } from '../../composition/porter-container.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import { INTERRUPTED_RUN_ERROR } from '../../domain/runs/run.js';
import { startTsx } from '../support/child-process.js';
import { until } from '../support/eventually.js';
import { deliverSigned } from '../support/signed-delivery.js';
import { databasePerTest, type TestDatabase } from '../support/postgres.js';
import { scratchFolder } from '../support/scratch-folder.js';
import { RUN_SCRIPT_TOOLS, RUN_SOURCES, runScript, runTools, type RunInstanceOptions } from '../support/run-instance.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INSTANCE = join(ROOT, 'test', 'support', 'run-instance.ts');
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ada = { subject: 'ada', kind: 'user' } as const;
/** Runs delivered to A, and how many it executes at once (IN_PROCESS_RUNS, pg-boss's default concurrency). */
const RUNS = 6;
const EXECUTING = 4;

/** An instance in the test's own process, on the same database. */
function instance(database: TestDatabase, scheduler: 'external' | 'pg-boss', ledger: string): Promise<Porter> {
  return createPorter(
    {
      development: false,
      secret: 'a-production-secret-for-the-tests-0123456789',
      databaseUrl: database.url,
      scheduler,
      logger: 'silent',
      model: new ScriptedLanguageModel(runScript),
      tools: runTools(ledger, false),
      webhooks: { sources: Object.fromEntries(RUN_SOURCES.map((source) => [source, { kind: 'standard' as const, secret: SECRET }])) },
    },
    {},
  );
}

describe('A run whose instance is killed (kill -9) mid-attempt, on PostgreSQL with two instances', function () {
  this.timeout(90_000);
  const database = databasePerTest();
  const folder = scratchFolder('porter-runs-survive-', { each: true });

  for (const scheduler of ['external', 'pg-boss'] as const) {
    it(`${scheduler}: its runs are retried on the other instance within seconds, executed tool calls not repeated, and its queued runs taken at once`, async () => {
      const ledger = join(folder.path(), 'ledger.txt');
      // The automation, armed with its standing grants, made by an instance that then goes away.
      const setup = await instance(database(), 'external', ledger);
      try {
        const automations = get(containerOf(setup), AUTOMATION_TOKENS.AutomationUseCases);
        const guard = get(containerOf(setup), GUARD_TOKENS.GuardUseCases);
        for (const source of RUN_SOURCES) {
          const automation = await automations.createAutomation.execute({
            principal: ada,
            name: `${source} (${scheduler})`,
            trigger: { kind: 'webhook', source },
            task: { prompt: 'Pay, then check', tools: RUN_SCRIPT_TOOLS },
            retry: { max: 2, backoffSeconds: 30 },
            concurrency: { limit: EXECUTING, whenBusy: 'queue' },
          });
          const { asks } = await automations.armAutomation.execute({ principal: ada, automationId: automation.id });
          for (const ask of asks) await guard.decideApproval.execute({ principal: ada, approvalId: ask.approvalId, approve: true });
        }
      } finally {
        await setup.close();
      }

      let a: ChildProcess | null = null;
      let b: Porter | null = null;
      try {
        // Instance A, its own process, alone: the run it is handed hangs in its second call.
        const options: RunInstanceOptions = { databaseUrl: database().url, scheduler, ledger, hang: true, webhookSecret: SECRET };
        const started = await startTsx({
          script: INSTANCE,
          args: [JSON.stringify(options)],
          ready: /listening (\d+) (\S+)/,
          exited: 'instance A exited before it listened',
        });
        a = started.child;
        let printed = '';
        a.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
        // Six runs on A, which executes four at once: four orders hang in their second call, and two
        // refunds (another automation: no order's end lets them go) wait in A's own queue.
        const wire = `http://127.0.0.1:${started.match[1]}${started.match[2]}`;
        const runIds: string[] = [];
        for (let i = 0; i < RUNS; i++)
          runIds.push(...(await deliverSigned(wire, i < EXECUTING ? 'orders' : 'refunds', SECRET, JSON.stringify({ order: i }))));
        expect(runIds).to.have.length(RUNS);
        await until(
          () => printed.split('\n').filter((line) => line.startsWith('executing ')).length,
          (executing) => executing === EXECUTING,
          { timeoutMs: 30_000, what: 'A to execute four slow calls' },
        );

        // Instance B joins, then A is killed outright mid-call.
        b = await instance(database(), scheduler, ledger);
        const runs = get(containerOf(b), RUN_TOKENS.RunUseCases);
        const read = () => Promise.all(runIds.map((runId) => runs.getRun.execute({ principal: ada, runId })));
        expect((await read()).filter((run) => run.state === 'running')).to.have.length(EXECUTING);
        a.kill('SIGKILL');
        await once(a, 'exit');
        const killedAt = Date.now();

        const ended = await until(read, (views) => views.every((view) => view.state === 'succeeded' || view.state === 'failed'), {
          timeoutMs: 45_000,
          what: 'every run to end on B',
        });
        expect(ended.map((run) => run.state)).to.deep.equal(runIds.map(() => 'succeeded'));
        const interrupted = ended.filter((run) => run.attempts.length === 2);
        expect(interrupted, 'the four A was executing were retried').to.have.length(EXECUTING);
        for (const run of interrupted) {
          expect(run.attempts.map((attempt) => [attempt.number, attempt.outcome, attempt.error])).to.deep.equal([
            [1, 'interrupted', INTERRUPTED_RUN_ERROR],
            [2, 'succeeded', null],
          ]);
          const tools = run.messages.flatMap((message) => message.parts).filter((part) => part.type.startsWith('tool-'));
          expect(tools.map((part) => [part.type, (part as { state?: string }).state])).to.deep.equal([
            ['tool-ledger_add', 'output-available'],
            ['tool-slow_check', 'output-available'],
          ]);
        }
        // Told by A's liveness mark, not its 60 s lease; the queued ones were not left for the 5-minute requeue.
        const startedAfterMs = ended.map((run) => Date.parse(run.attempts[run.attempts.length - 1]!.startedAt) - killedAt);
        expect(Math.max(...startedAfterMs), 'every run going again within seconds of the kill').to.be.below(10_000);

        const lines = (await readFile(ledger, 'utf8')).trim().split('\n');
        expect(lines.map((line) => line.split(' ')[0]).sort(), "each run's ledger call ran once").to.deep.equal([...runIds].sort());
      } finally {
        if (a && a.exitCode === null && a.signalCode === null) a.kill('SIGKILL');
        await b?.close();
      }
    });
  }
});
