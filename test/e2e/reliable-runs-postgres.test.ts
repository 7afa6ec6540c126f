import { expect } from 'chai';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { get } from '../../composition/tokens.js';
import { AUTOMATION_TOKENS } from '../../composition/modules/automations-tokens.js';
import { RUN_TOKENS } from '../../composition/modules/runs-tokens.js';
import { containerOf } from '../../composition/porter-container.js';
import { defineTool } from '../../application/tools/define-tool.js';
import { FlakyModel } from '../support/flaky-model.js';
import { z } from 'zod';
import { serve, type RunningServer } from '../support/http-server.js';
import { until } from '../support/eventually.js';
import { deliverSigned } from '../support/signed-delivery.js';
import { databasePerTest } from '../support/postgres.js';

const SOURCE_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ada = { subject: 'ada', kind: 'user' };

describe('Reliable runs on three instances sharing one PostgreSQL', function () {
  this.timeout(90_000);
  // A database of its own per case: deliveries start a run for every armed automation on the source.
  const database = databasePerTest();

  for (const scheduler of ['external', 'pg-boss'] as const) {
    it(`${scheduler}: five simultaneous deliveries with limit 1 run one after another, and a run whose model fails twice succeeds on its third attempt`, async () => {
      const probe = { inFlight: 0, most: 0, runs: [] as string[] };
      const inboxRead = defineTool({
        name: 'inbox_read',
        description: 'Reads the inbox',
        input: z.strictObject({}),
        risk: 'read',
        async execute(_input, context) {
          probe.inFlight += 1;
          probe.most = Math.max(probe.most, probe.inFlight);
          probe.runs.push(context.runId ?? '');
          await new Promise((resolve) => setTimeout(resolve, 150));
          probe.inFlight -= 1;
          return { unread: 0 };
        },
      });
      const model = new FlakyModel(4);
      const instances: Porter[] = [];
      const servers: RunningServer[] = [];
      for (let i = 0; i < 3; i++) {
        const porter = await createPorter(
          {
            development: false,
            secret: 'a-production-secret-for-the-tests-0123456789',
            databaseUrl: database().url,
            scheduler,
            tools: [inboxRead],
            model,
            webhooks: {
              sources: { orders: { kind: 'standard', secret: SOURCE_SECRET }, flaky: { kind: 'standard', secret: SOURCE_SECRET } },
            },
            logger: 'silent',
          },
          {},
        );
        instances.push(porter);
        servers.push(await serve(porter.listener));
      }
      try {
        const automations = get(containerOf(instances[0]!), AUTOMATION_TOKENS.AutomationUseCases);
        const runs = get(containerOf(instances[1]!), RUN_TOKENS.RunUseCases);
        const orders = await automations.createAutomation.execute({
          principal: ada,
          name: `orders (${scheduler})`,
          trigger: { kind: 'webhook', source: 'orders' },
          task: { prompt: '/call inbox_read {}' },
          concurrency: { limit: 1, whenBusy: 'queue' },
        });
        await automations.armAutomation.execute({ principal: ada, automationId: orders.id });
        const flaky = await automations.createAutomation.execute({
          principal: ada,
          name: `flaky (${scheduler})`,
          trigger: { kind: 'webhook', source: 'flaky' },
          task: { prompt: 'Flaky task' },
          retry: { max: 2, backoffSeconds: 1 },
        });
        await automations.armAutomation.execute({ principal: ada, automationId: flaky.id });

        const deliver = (server: RunningServer, source: string, id: string) =>
          deliverSigned(`${server.url}${instances[0]!.mount}`, source, SOURCE_SECRET, JSON.stringify({ id }), id);
        const delivered = await Promise.all([
          ...Array.from({ length: 5 }, (_, i) => deliver(servers[i % 3]!, 'orders', `msg_${scheduler}_order_${i}`)),
          deliver(servers[2]!, 'flaky', `msg_${scheduler}_flaky`),
        ]);
        const orderRuns = delivered.slice(0, 5).flat();
        const [flakyRun] = delivered[5]!;

        const listed = await until(
          () => runs.listRuns.execute({ principal: ada, automationId: orders.id }),
          (page) => page.runs.length === 5 && page.runs.every((run) => run.state === 'succeeded'),
          { timeoutMs: 60_000, what: 'the five runs to succeed' },
        );
        expect(probe.most, 'two runs of a limit-1 automation overlapped').to.equal(1);
        expect(new Set(probe.runs)).to.deep.equal(new Set(orderRuns));
        expect(listed.runs.map((run) => run.id).sort()).to.deep.equal([...orderRuns].sort());
        // One after another: each began once the one before it had ended.
        const spans = listed.runs.map((run) => [run.startedAt!, run.endedAt!] as const).sort(([a], [b]) => a.localeCompare(b));
        for (let i = 1; i < spans.length; i++)
          expect(spans[i]![0] >= spans[i - 1]![1], `run ${i} began before run ${i - 1} ended`).to.equal(true);

        const retried = await until(
          () => runs.getRun.execute({ principal: ada, runId: flakyRun! }),
          (run) => run.state === 'succeeded' || run.state === 'failed',
          { timeoutMs: 30_000, what: 'the flaky run to end' },
        );
        expect(retried.state).to.equal('succeeded');
        expect(retried.attempts.map((attempt) => attempt.outcome)).to.deep.equal(['failed', 'failed', 'succeeded']);
        // Each attempt waited its backoff: 1 s, then 2 s.
        expect(Date.parse(retried.attempts[1]!.startedAt) - Date.parse(retried.attempts[0]!.endedAt!)).to.be.at.least(1_000);
        expect(Date.parse(retried.attempts[2]!.startedAt) - Date.parse(retried.attempts[1]!.endedAt!)).to.be.at.least(2_000);
        expect(model.calls).to.equal(5);
      } finally {
        for (const server of servers) await server.close();
        for (const porter of instances) await porter.close();
      }
    });
  }
});
