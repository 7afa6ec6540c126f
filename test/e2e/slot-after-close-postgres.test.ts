import { expect } from 'chai';
import pg from 'pg';
import { z } from 'zod';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { get } from '../../composition/tokens.js';
import { AUTOMATION_TOKENS } from '../../composition/modules/automations-tokens.js';
import { RUN_TOKENS } from '../../composition/modules/runs-tokens.js';
import { containerOf } from '../../composition/porter-container.js';
import { defineTool } from '../../application/tools/define-tool.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import { slotRunId } from '../../application/scheduler/slot-run-id.js';
import { holderOf } from '../../composition/modules/instance-liveness.js';
import { LIVENESS_LOCK_CLASS, markOf } from '../../adapters/store/mikro-orm/postgresql-liveness.js';
import { until } from '../support/eventually.js';
import { databasePerTest } from '../support/postgres.js';

const ada = { subject: 'ada', kind: 'user' };
const EVERY_SECONDS = 10;
/**
 * Well past the next slot, well short of the closed instance's run lease (60 s), which is what
 * the next slot's run would otherwise wait out: its automation runs one at a time.
 */
const NEXT_SLOT_WITHIN_MS = EVERY_SECONDS * 1000 + 20_000;

/** Ends the session holding the instance's liveness mark, as a network cut or a server restart would. */
async function killLivenessConnection(url: string, porter: Porter): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rowCount } = await client.query(
      "select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objsubid = 2 and granted " +
        'and classid::bigint = $1 and objid::bigint = $2',
      [LIVENESS_LOCK_CLASS, markOf(holderOf(containerOf(porter))) >>> 0],
    );
    expect(rowCount, "the instance's liveness session").to.equal(1);
  } finally {
    await client.end();
  }
}

describe('A schedule on three instances sharing one PostgreSQL, one going away with a run in flight', function () {
  this.timeout(120_000);
  const database = databasePerTest();

  const cases = [
    ['interval', 'closed'],
    ['pg-boss', 'closed'],
    ['interval', 'connection killed'],
    ['pg-boss', 'connection killed'],
  ] as const;
  for (const [scheduler, gone] of cases) {
    const title =
      gone === 'closed'
        ? "the next slot fires once on a survivor, and the closed instance's run is taken on at once"
        : 'the next slot fires once, and the run of the instance whose liveness session was killed is taken on at once';
    it(`${scheduler}, ${gone}: ${title}`, async () => {
      const calls: Array<{ instance: number; runId: string }> = [];
      // The first call of all holds until its instance lets it go (closing aborts it); later ones answer at once.
      let holding = false;
      const instances: Porter[] = [];
      const closed = new Set<number>();
      for (let i = 0; i < 3; i++) {
        const work = defineTool({
          name: 'work',
          description: 'Does a little work',
          input: z.strictObject({}),
          risk: 'read',
          async execute(_input, context) {
            calls.push({ instance: i, runId: context.runId ?? '' });
            if (holding) return { done: true };
            holding = true;
            await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
            return { done: false };
          },
        });
        instances.push(
          await createPorter(
            {
              development: false,
              secret: 'a-production-secret-for-the-tests-0123456789',
              databaseUrl: database().url,
              scheduler,
              tools: [work],
              model: new ScriptedLanguageModel(),
              logger: 'silent',
            },
            {},
          ),
        );
      }
      try {
        const automations = get(containerOf(instances[0]!), AUTOMATION_TOKENS.AutomationUseCases);
        const created = await automations.createAutomation.execute({
          principal: ada,
          name: 'report',
          trigger: { kind: 'schedule', cron: `*/${EVERY_SECONDS} * * * * *` },
          task: { prompt: '/call work {}' },
        });
        await automations.armAutomation.execute({ principal: ada, automationId: created.id });

        // A slot's run is under way on some instance, held in its call: that instance closes (or loses its liveness session).
        await until(
          () => calls.length,
          (count) => count > 0,
          { timeoutMs: EVERY_SECONDS * 1000 + 15_000, what: "a slot's run to begin" },
        );
        const first = calls[0]!;
        const runs = get(containerOf(instances[(first.instance + 1) % 3]!), RUN_TOKENS.RunUseCases);
        const firstRun = await runs.getRun.execute({ principal: ada, runId: first.runId });
        expect(firstRun.cause.kind).to.equal('schedule');
        const slot = new Date(firstRun.cause.kind === 'schedule' ? firstRun.cause.slot : 0);
        if (gone === 'closed') {
          closed.add(first.instance);
          await instances[first.instance]!.close();
        } else await killLivenessConnection(database().url, instances[first.instance]!);

        // The next slot's run begins: its automation was not left busy by the instance gone.
        const nextRunId = slotRunId(created.id, new Date(slot.getTime() + EVERY_SECONDS * 1000));
        await until(
          () => calls.filter((call) => call.runId === nextRunId).length,
          (count) => count >= 1,
          { timeoutMs: NEXT_SLOT_WITHIN_MS, what: 'the next slot to run on a survivor' },
        );
        const [again, next] = await until(
          () => Promise.all([first.runId, nextRunId].map((runId) => runs.getRun.execute({ principal: ada, runId }))),
          (views) => views.every((view) => view.state === 'succeeded'),
          { timeoutMs: 30_000, what: 'both runs to succeed' },
        );
        // The run let go went on, as an interrupted attempt and a second one.
        expect(again!.attempts.map((attempt) => attempt.outcome)).to.deep.equal(['interrupted', 'succeeded']);
        // Exactly once: the next slot's run is one run, its call made once (on a survivor, when one closed).
        const nextCalls = calls.filter((call) => call.runId === nextRunId);
        expect(nextCalls).to.have.length(1);
        if (gone === 'closed') expect(nextCalls[0]!.instance).to.not.equal(first.instance);
        expect(next!.attempts).to.have.length(1);
      } finally {
        for (const [i, porter] of instances.entries()) if (!closed.has(i)) await porter.close();
      }
    });
  }
});
