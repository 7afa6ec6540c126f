import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { resultFromTaskOutcome, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import { connectSdk, connectSdkV2 } from '../support/door-client.js';
import { connectTaskClient, MODERN, modernRequest } from '../support/door-tasks-client.js';
import { devHostPerTest } from '../support/dev-host-fixture.js';
import { WireClient } from '../support/turn-client.js';
import { clusterPerSuite, type TurnCluster } from '../support/turn-cluster.js';

/** A run's state as the call that started it may find it. */
const STARTED_STATES = ['queued', 'running', 'succeeded'];

const RUN = 'porter_automations_run';

/** An automation of the person's that never fires on its own (unarmed), doing `prompt` when run. */
async function automationOf(wire: WireClient, prompt: string): Promise<string> {
  const created = await wire.json('POST', '/automations', {
    name: 'Morning digest',
    trigger: { kind: 'schedule', cron: '0 6 * * *' },
    task: { prompt },
  });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  return created.body.id as string;
}

/** Waits until the run is in `state`, reading it as its owner does (a run executes in the background). */
async function runReaches(wire: WireClient, runId: string, state: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 300; i++) {
    const { body } = await wire.json('GET', `/runs/${runId}`);
    if (body.state === state) return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} never reached ${state}`);
}

/**
 * Starting a run is a write: the first call parks for the person's approval, which they give
 * (remembering it for this tool), and the identical retry starts the run.
 */
async function approveRunTool(call: () => Promise<CallToolResult>, wire: WireClient): Promise<void> {
  const parked = await call();
  expect(parked.isError, JSON.stringify(parked)).to.equal(true);
  const { approvalId } = parked.structuredContent as { approvalId: string };
  const decided = await wire.json('POST', `/approvals/${approvalId}/decide`, {
    approve: true,
    remember: { scope: 'tool', duration: 'standing' },
  });
  expect(decided.status, JSON.stringify(decided.body)).to.equal(200);
}

/** The immediate (parked) answer of a task session's call, as a plain tool result. */
async function immediate(session: TaskEnabledSession, args: Record<string, string>): Promise<CallToolResult> {
  const execution = await session.callTool(RUN, args);
  expect(execution.kind, 'a parked call is no task').to.equal('immediate');
  return resultFromTaskOutcome((await execution.settle()).outcome) as CallToolResult;
}

describe('The MCP door offers automation runs as tasks (the Tasks extension of 2026-07-28)', function () {
  this.timeout(90_000);
  const start = devHostPerTest();

  it('a client that declares the extension starts a run as a task, polls it to completion and reads its result', async () => {
    const { host, door } = await start();
    const ada = host.client.as('ada');
    const automationId = await automationOf(ada, 'summarise the overnight tickets');
    const { session, client } = await connectTaskClient(door, 'ada');
    expect(client.getServerCapabilities()?.extensions, 'server/discover offers the extension').to.deep.equal({
      'io.modelcontextprotocol/tasks': {},
    });
    await approveRunTool(() => immediate(session, { automationId }), ada);

    const execution = await session.callTool(RUN, { automationId });
    expect(execution.kind).to.equal('task');
    const taskId = execution.handle!.taskId;
    expect(taskId).to.match(/^run_/);
    const seen: string[] = [];
    const { outcome } = await execution.settle({ onEvent: (event) => void (event.type === 'task' && seen.push(event.task.status)) });
    expect(
      outcome.status,
      JSON.stringify(outcome, (_key, value: unknown) => (value instanceof Error ? { ...value, message: value.message } : value)),
    ).to.equal('completed');
    const result = resultFromTaskOutcome(outcome) as CallToolResult;
    expect(result.isError ?? false).to.equal(false);
    expect((result.content[0] as { text: string }).text).to.contain('summarise the overnight tickets');
    expect(result.structuredContent).to.deep.include({ runId: taskId, automationId, state: 'succeeded' });

    expect(seen.length, 'it polled at least once').to.be.at.least(1);
    const run = await ada.json('GET', `/runs/${taskId}`);
    expect(run.body).to.deep.include({ state: 'succeeded', startedBy: 'ada', cause: { kind: 'run-now', venue: 'mcp' } });
    await session.close();
  });

  it('tasks/cancel stops a running run, wherever it runs', async () => {
    const { host, door } = await start();
    const ada = host.client.as('ada');
    // Long enough to be running when it is cancelled; a stop ends it once the model's step is done.
    const automationId = await automationOf(ada, '/slow 6 one two three four five six seven eight');
    const { session } = await connectTaskClient(door, 'ada');
    await approveRunTool(() => immediate(session, { automationId }), ada);

    const execution = await session.callTool(RUN, { automationId });
    expect(execution.kind).to.equal('task');
    const taskId = execution.handle!.taskId;
    await runReaches(ada, taskId, 'running');
    expect((await session.task(taskId).snapshot()).status).to.equal('working');

    await execution.cancel();
    const stopped = await runReaches(ada, taskId, 'cancelled');
    expect(stopped).to.deep.include({ ending: 'stopped' });
    const after = await session.task(taskId).snapshot();
    expect(after.status).to.equal('cancelled');
    await session.close();
  });

  it("answers another person's task id as not found, and leaves their run alone", async () => {
    const { host, door } = await start();
    const ada = host.client.as('ada');
    const automationId = await automationOf(ada, '/slow 30 one two three four five six seven eight');
    const adas = await connectTaskClient(door, 'ada');
    await approveRunTool(() => immediate(adas.session, { automationId }), ada);
    const execution = await adas.session.callTool(RUN, { automationId });
    const taskId = execution.handle!.taskId;
    await runReaches(ada, taskId, 'running');

    const bea = await connectTaskClient(door, 'bea');
    const token = bea.provider.tokens()!.access_token;
    const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const answer = await modernRequest(door, token, method, { taskId, inputResponses: {} }, tasks);
      expect(answer.body.error, `${method}: ${JSON.stringify(answer.body)}`).to.deep.include({
        code: -32602,
        message: 'Failed to retrieve task: Task not found',
      });
    }
    const nobody = await modernRequest(door, token, 'tasks/get', { taskId: 'run_01NOTANYONES0000000000000' }, tasks);
    expect(nobody.body.error).to.deep.include({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    for (const hostile of [42, null, 'x'.repeat(5_000), "run_' or 1=1 --"]) {
      const refused = await modernRequest(door, token, 'tasks/get', { taskId: hostile }, tasks);
      expect(refused.status, JSON.stringify(hostile).slice(0, 40)).to.be.below(500);
      expect(refused.body.error?.code, JSON.stringify(refused.body).slice(0, 200)).to.equal(-32602);
    }
    // Bea's requester says the same through its own controller.
    let refused: unknown;
    await bea.session
      .task(taskId)
      .snapshot()
      .catch((error: unknown) => (refused = error));
    expect(refused, 'her requester is refused too').to.be.instanceOf(Error);

    // Ada's own request without the extension is refused for the missing capability (-32021).
    const undeclared = await modernRequest(door, adas.provider.tokens()!.access_token, 'tasks/get', { taskId }, {});
    expect(undeclared.body.error).to.deep.include({ code: -32021 });
    expect((undeclared.body.error!.data as { requiredCapabilities: unknown }).requiredCapabilities).to.deep.equal(tasks);

    expect((await ada.json('GET', `/runs/${taskId}`)).body.state, "ada's run goes on").to.equal('running');
    await execution.cancel();
    await adas.session.close();
    await bea.session.close();
  });

  it('answers a client without the extension with the run and where to follow it (2026-07-28 and 2025-11-25 alike)', async () => {
    const { host, door } = await start({ door: { chromeUrl: '/' } });
    const ada = host.client.as('ada');
    const automationId = await automationOf(ada, 'tidy the inbox');
    const modern = await connectSdkV2(door, 'ada', { versionNegotiation: { mode: { pin: MODERN } } });
    const call = () => modern.client.callTool({ name: RUN, arguments: { automationId } }) as Promise<CallToolResult>;
    await approveRunTool(call, ada);

    const listed = (await modern.client.callTool({ name: 'porter_automations_list', arguments: {} })) as CallToolResult;
    expect(listed.structuredContent).to.deep.equal({
      automations: [
        { id: automationId, name: 'Morning digest', trigger: { kind: 'schedule', cron: '0 6 * * *' }, armed: false, nextRunAt: null },
      ],
    });

    const started = await call();
    expect(started.isError ?? false, JSON.stringify(started)).to.equal(false);
    const { runId, runUrl } = started.structuredContent as { runId: string; runUrl: string };
    expect(started.structuredContent).to.deep.include({ automationId });
    // Its state when answered: queued, unless the run was quicker than the answer.
    expect(STARTED_STATES).to.include((started.structuredContent as { state: string }).state);
    expect(runUrl).to.equal(`${host.url}/#/runs/${runId}`);
    expect((started.content[0] as { text: string }).text)
      .to.contain(`Started run ${runId}`)
      .and.to.contain(runUrl);
    await runReaches(ada, runId, 'succeeded');

    const legacy = await connectSdk(door, 'ada');
    const again = (await legacy.client.callTool({ name: RUN, arguments: { automationId } })) as CallToolResult;
    const approvedOnce = again.isError
      ? await (async () => {
          // A new client is a new consent: the person approves once more for it.
          const { approvalId } = again.structuredContent as { approvalId: string };
          expect((await ada.json('POST', `/approvals/${approvalId}/decide`, { approve: true })).status).to.equal(200);
          return (await legacy.client.callTool({ name: RUN, arguments: { automationId } })) as CallToolResult;
        })()
      : again;
    expect(approvedOnce.structuredContent).to.deep.include({ automationId });
    expect(STARTED_STATES).to.include((approvedOnce.structuredContent as { state: string }).state);
    await modern.client.close();
    await legacy.client.close();
  });
});

for (const backend of ['SQLite file', 'PostgreSQL'] as const)
  describe(`Door tasks on two Porter instances over one database (${backend})`, function () {
    this.timeout(120_000);
    const running = clusterPerSuite(2, backend === 'PostgreSQL' ? 'postgresql' : 'sqlite', { door: true });
    let cluster: TurnCluster;
    let door: URL;

    before(() => {
      cluster = running();
      door = new URL(`${cluster.wire}/mcp`);
    });

    it('a task started on one instance is polled to its result through the other', async () => {
      const ada = new WireClient(cluster.wire).as('ada');
      const automationId = await automationOf(ada, 'count the open invoices');
      const { session, provider } = await connectTaskClient(door, 'ada');
      await approveRunTool(() => immediate(session, { automationId }), ada);

      const from = cluster.proxy.served.length;
      const execution = await session.callTool(RUN, { automationId });
      expect(execution.kind).to.equal('task');
      const taskId = execution.handle!.taskId;
      // Two polls in a row: the balancer hands them to one instance each, and both answer the task
      // from the run's record (the run itself executes on the instance that started it).
      const token = provider.tokens()!.access_token;
      const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
      const before = cluster.proxy.served.length;
      for (let i = 0; i < 2; i++) {
        const polled = await modernRequest(door, token, 'tasks/get', { taskId }, tasks);
        expect(polled.body.result, JSON.stringify(polled.body)).to.deep.include({ taskId, resultType: 'complete' });
      }
      const polledBy = cluster.proxy.served.slice(before).map((served) => served.upstream);
      expect([...new Set(polledBy)].sort(), 'each instance answered a poll').to.deep.equal([0, 1]);
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as CallToolResult;
      expect((result.content[0] as { text: string }).text).to.contain('count the open invoices');
      const upstreams = new Set(cluster.proxy.served.slice(from).map((served) => served.upstream));
      expect([...upstreams].sort(), 'both instances answered the task').to.deep.equal([0, 1]);
      await session.close();
    });
  });
