import { expect } from 'chai';
import { z } from 'zod';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { get } from '../../composition/tokens.js';
import { AUTOMATION_TOKENS } from '../../composition/modules/automations-tokens.js';
import { TICK_TOKENS } from '../../composition/modules/tick-tokens.js';
import { containerOf } from '../../composition/porter-container.js';
import { defineTool } from '../../application/tools/define-tool.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import { until } from '../support/eventually.js';
import { databasePerTest } from '../support/postgres.js';
import { everyRun } from '../support/every-run.js';

const TICK_SECRET = 'a-tick-secret-for-the-tests-0123456789';
const ada = { subject: 'ada', kind: 'user' };
const SLOT_RUNS = 200;
/** Automations armed at once while the test sets the slot up. */
const ARMING = 10;

/** A cron naming one second only (once a year): the slot every automation of the test shares. */
function cronAt(slot: Date): string {
  return `${slot.getUTCSeconds()} ${slot.getUTCMinutes()} ${slot.getUTCHours()} ${slot.getUTCDate()} ${slot.getUTCMonth() + 1} *`;
}

describe('A schedule slot on three instances sharing one PostgreSQL', function () {
  this.timeout(300_000);
  const database = databasePerTest();

  for (const scheduler of ['external', 'pg-boss'] as const) {
    const driver = scheduler === 'external' ? 'one POST /tick' : "every instance's ticker";
    it(`${scheduler}: a slot of ${SLOT_RUNS} runs fired by ${driver} spreads over the three instances, each run executed once`, async function () {
      const executed: Array<{ instance: number; runId: string }> = [];
      const instances: Porter[] = [];
      for (let i = 0; i < 3; i++) {
        const work = defineTool({
          name: 'work',
          description: 'Does a little work',
          input: z.strictObject({}),
          risk: 'read',
          async execute(_input, context) {
            executed.push({ instance: i, runId: context.runId ?? '' });
            await new Promise((resolve) => setTimeout(resolve, 100));
            return { done: true };
          },
        });
        instances.push(
          await createPorter(
            {
              development: false,
              secret: 'a-production-secret-for-the-tests-0123456789',
              databaseUrl: database().url,
              tickSecret: TICK_SECRET,
              scheduler,
              tools: [work],
              model: new ScriptedLanguageModel(),
              // 200 calls in a minute by one owner would trip the breaker; this test is about spreading.
              breakers: false,
              logger: 'silent',
            },
            {},
          ),
        );
      }
      try {
        const automations = get(containerOf(instances[0]!), AUTOMATION_TOKENS.AutomationUseCases);
        const armed = async (name: string, at: Date) => {
          const created = await automations.createAutomation.execute({
            principal: ada,
            name,
            trigger: { kind: 'schedule', cron: cronAt(at) },
            task: { prompt: '/call work {}' },
          });
          await automations.armAutomation.execute({ principal: ada, automationId: created.id });
        };
        // Armed ARMING at a time: a busy machine slows each one down, not the database they wait on.
        const armAll = async (names: string[], at: Date) => {
          for (let i = 0; i < names.length; i += ARMING) await Promise.all(names.slice(i, i + ARMING).map((name) => armed(name, at)));
        };
        // One shared slot, far enough ahead to arm every automation before it at this machine's
        // pace, measured on one batch armed for a slot months away (they never fire here), with
        // room for the machine to get three times busier meanwhile.
        const started = Date.now();
        await armAll(
          Array.from({ length: ARMING }, (_, i) => `pace ${i}`),
          new Date(started + 180 * 86_400_000),
        );
        const batch = Date.now() - started;
        const slot = new Date(Math.ceil((Date.now() + Math.max(15_000, 5_000 + 3 * batch * (SLOT_RUNS / ARMING))) / 1000) * 1000);
        await armAll(
          Array.from({ length: SLOT_RUNS }, (_, i) => `report ${i}`),
          slot,
        );
        expect(Date.now(), 'every automation was armed before the slot').to.be.below(slot.getTime());
        // The slot is as far ahead as this machine's pace asks; the waits after it keep their own caps.
        this.timeout(slot.getTime() - Date.now() + 240_000);
        await new Promise((resolve) => setTimeout(resolve, slot.getTime() - Date.now() + 10));
        if (scheduler === 'external') {
          const answer = await get(containerOf(instances[0]!), TICK_TOKENS.TickUseCases).tick.execute({ bearer: TICK_SECRET });
          expect(answer.runIds).to.have.length(SLOT_RUNS);
        }

        await until(
          () => executed.length,
          (count) => count >= SLOT_RUNS,
          { timeoutMs: 150_000, what: `the ${SLOT_RUNS} runs to execute` },
        );
        const stored = await until(
          () => everyRun(instances[2]!, ada),
          (all) => all.length === SLOT_RUNS && all.every((run) => run.state === 'succeeded'),
          { timeoutMs: 60_000, what: `the ${SLOT_RUNS} runs to succeed` },
        );
        expect(stored.every((run) => run.cause.kind === 'schedule' && run.cause.slot === slot.toISOString())).to.equal(true);
        // Exactly once: each run's tool call ran on one instance, once.
        expect(executed).to.have.length(SLOT_RUNS);
        expect(new Set(executed.map((entry) => entry.runId))).to.deep.equal(new Set(stored.map((run) => run.id)));
        // Spread: every instance took a share, not the one the tick reached (four at a time, the others idle).
        const shares = [0, 1, 2].map((instance) => executed.filter((entry) => entry.instance === instance).length);
        for (const share of shares) expect(share, `shares ${shares.join('/')}`).to.be.at.least(SLOT_RUNS / 6);
      } finally {
        for (const porter of instances) await porter.close();
      }
    });
  }
});
