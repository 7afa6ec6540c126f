import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import type { ToolDefinition } from '../../../ports/tool-registry.js';
import type { Store } from '../../../ports/store.js';
import { Run } from '../../../domain/runs/run.js';
import { isToolPart } from '../../../domain/threads/ui-message.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { openStore } from '../../../adapters/store/open-store.js';
import { modelFromLadder } from '../../../adapters/model/model-ladder.js';
import { StandardWebhooksVerifier } from '../../../adapters/webhooks/standard-webhooks-verifier.js';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';
import { chatCompletionsServer, type ChatCompletionsServer, type CompletionScript } from '../../support/chat-completions-server.js';
import { webhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';

const SOURCE_SECRET = `whsec_${Buffer.from('a-test-secret-for-standard-webhooks').toString('base64')}`;
const grace = { subject: 'grace', kind: 'user' };

/** Where the instances of one test keep their records: one store shared, or (PostgreSQL) one pool each on one database. */
interface StoreKind {
  readonly name: string;
  /** Stores for `count` instances on one database. */
  open(count: number, clock: ManualClock): Promise<Store[]>;
}

// What a test opened, closed after it.
const opened: Store[] = [];
const databases: TestDatabase[] = [];
const served: Array<ChatCompletionsServer | WebhookReceiver> = [];
let postgres: string | null = null;

const KINDS: StoreKind[] = [
  {
    name: 'memory',
    open: async (count, clock) => {
      const store = new MemoryStore({ clock });
      return Array.from({ length: count }, () => store);
    },
  },
  {
    name: 'SQLite',
    open: async (count, clock) => {
      const store = await openStore('sqlite::memory:', { clock });
      opened.push(store);
      return Array.from({ length: count }, () => store);
    },
  },
  {
    name: 'PostgreSQL',
    open: async (count, clock) => {
      // A database of its own per test: a tick reads every armed automation in it.
      const database = await createTestDatabase(postgres!);
      databases.push(database);
      const stores: Store[] = [];
      for (let i = 0; i < count; i++) stores.push(await openStore(database.url, { clock }));
      opened.push(...stores);
      return stores;
    },
  },
];

/**
 * A model served by a local OpenAI-compatible server, answering request n with `scripts[n]` (the last
 * for every later one); the server is closed after the test.
 */
async function servedModel(scripts: CompletionScript[]) {
  const server = await chatCompletionsServer((_request, index) => scripts[Math.min(index, scripts.length - 1)]!);
  served.push(server);
  const agentModel = (await modelFromLadder({ PORTER_MODEL_URL: server.url, PORTER_MODEL: 'test-model' }, false))!;
  return { server, agentModel };
}

/** A receiver of completion webhooks answering `statuses` in turn; closed after the test. */
async function receiving(statuses: number[]): Promise<WebhookReceiver> {
  const receiver = await webhookReceiver(statuses);
  served.push(receiver);
  return receiver;
}

/** A read tool that takes a while and counts how many of its calls overlap. */
function overlapProbe(delayMs: number) {
  const log = { inFlight: 0, most: 0, runs: [] as string[] };
  const tool: ToolDefinition = {
    name: 'inbox_read',
    description: 'Reads the inbox',
    inputSchema: { type: 'object', additionalProperties: true },
    risk: 'read',
    async execute(_input, context) {
      log.inFlight += 1;
      log.most = Math.max(log.most, log.inFlight);
      log.runs.push(context.runId ?? '');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      log.inFlight -= 1;
      return { unread: 0 };
    },
  };
  return { tool, log };
}

function signedDelivery(id: string, body: Record<string, unknown> = { order: id }) {
  const text = JSON.stringify(body);
  const at = new Date();
  return {
    source: 'orders',
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(SOURCE_SECRET).sign(id, at, text),
    },
    body: new TextEncoder().encode(text),
  };
}

for (const kind of KINDS) {
  describe(`Runs people can rely on (${kind.name})`, function () {
    this.timeout(30_000);

    before(async function () {
      if (kind.name !== 'PostgreSQL') return;
      postgres = await postgresServerUrl();
      if (!postgres) return this.skip();
    });

    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      for (const database of databases.splice(0)) await database.drop();
      for (const server of served.splice(0)) await server.close();
    });

    describe('retries', () => {
      it('a model failing twice then succeeding gives one run with three attempts, and the call it made runs once', async () => {
        const model = await servedModel([
          { toolCalls: [{ id: 'call_note', name: 'notes_add', arguments: '{"text":"pay the invoice"}' }] },
          // Each failure is two answers: the AI SDK retries a 503 once itself before giving up.
          { status: 503 },
          { status: 503 },
          { status: 503 },
          { status: 503 },
          { text: 'Noted: pay the invoice.' },
        ]);
        const clock = new ManualClock('2026-06-01T12:00:00.000Z');
        const [store] = await kind.open(1, clock);
        const notes = countingTool('notes_add', 'write');
        const h = automationsHarness({ tools: [notes.tool], store, clock, agentModel: model.agentModel });
        const automation = await h.automation({
          prompt: 'Note the invoice',
          tools: ['notes_add'],
          retry: { max: 2, backoffSeconds: 30 },
        });
        await h.armApproved(automation.id);
        const [runId] = (await h.tick.execute()).runIds;

        await h.runQueued();
        const first = await h.getRun.execute({ principal: ada, runId: runId! });
        expect(first.state).to.equal('queued');
        expect(first.attempts).to.have.length(1);
        expect(first.attempts[0]).to.deep.include({ number: 1, outcome: 'failed', retryAt: '2026-06-01T12:00:30.000Z' });
        expect(first.nextAttemptAt).to.equal('2026-06-01T12:00:30.000Z');
        expect(notes.calls).to.have.length(1);

        // Not before its backoff: nothing is due.
        clock.advance(29_000);
        expect(await h.runQueued()).to.deep.equal([]);
        clock.advance(1_000);
        await h.runQueued();
        const second = await h.getRun.execute({ principal: ada, runId: runId! });
        expect(second.attempts.map((a) => a.outcome)).to.deep.equal(['failed', 'failed']);
        // Exponential: the second wait is twice the first.
        expect(second.nextAttemptAt).to.equal('2026-06-01T12:01:30.000Z');

        clock.advance(60_000);
        await h.runQueued();
        const done = await h.getRun.execute({ principal: ada, runId: runId! });
        expect(done).to.deep.include({ state: 'succeeded', ending: 'completed', error: null, nextAttemptAt: null });
        expect(done.attempts.map((a) => [a.number, a.outcome])).to.deep.equal([
          [1, 'failed'],
          [2, 'failed'],
          [3, 'succeeded'],
        ]);
        expect(notes.calls, 'the note was added once, not once per attempt').to.deep.equal([{ text: 'pay the invoice' }]);
        const calls = done.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool-notes_add');
        expect(calls).to.have.length(1);
        expect(calls[0]).to.deep.include({ state: 'output-available' });
        expect(done.messages.flatMap((m) => m.parts).some((p) => p.type === 'text' && String(p.text).includes('Noted'))).to.equal(true);
        expect(model.server.requests).to.have.length(6);
        const actions = (await h.auditLog.list('ada', { limit: 100 })).events.map((e) => e.action);
        expect(actions.filter((a) => a === 'run.retrying')).to.have.length(2);
      });

      it('a failure that trying again cannot mend (a 400) fails the run at once; retries that run out fail it', async () => {
        const model = await servedModel([{ status: 400 }]);
        const clock = new ManualClock('2026-06-01T12:00:00.000Z');
        const [store] = await kind.open(1, clock);
        const h = automationsHarness({ tools: [], store, clock, agentModel: model.agentModel });
        const automation = await h.automation({ prompt: 'hello', retry: { max: 2, backoffSeconds: 30 } });
        await h.armApproved(automation.id);
        const [runId] = (await h.tick.execute()).runIds;
        await h.runQueued();
        const refused = await h.getRun.execute({ principal: ada, runId: runId! });
        expect(refused).to.deep.include({ state: 'failed', ending: 'error', nextAttemptAt: null });
        expect(refused.attempts.map((a) => a.outcome)).to.deep.equal(['failed']);

        await h.disarm.execute({ principal: ada, automationId: automation.id });
        await model.server.close();
        const flaky = await servedModel([{ status: 503 }]);
        const g = automationsHarness({ tools: [], store, clock, agentModel: flaky.agentModel, holder: 'instance-g' });
        const once = await g.automation({ name: 'one retry', prompt: 'hello', retry: { max: 1, backoffSeconds: 5 }, owner: grace });
        await g.arm.execute({ principal: grace, automationId: once.id });
        clock.advance(60_000);
        const [again] = (await g.tick.execute()).runIds;
        await g.runQueued();
        clock.advance(5_000);
        await g.runQueued();
        const exhausted = await g.getRun.execute({ principal: grace, runId: again! });
        expect(exhausted.state).to.equal('failed');
        expect(exhausted.attempts.map((a) => a.outcome)).to.deep.equal(['failed', 'failed']);
        expect(exhausted.attempts[1]!.retryAt).to.equal(null);
      });

      it('a run stopped while it waits for its retry is cancelled and never tried again', async () => {
        const model = await servedModel([{ status: 503 }, { status: 503 }, { text: 'too late' }]);
        const clock = new ManualClock('2026-06-01T12:00:00.000Z');
        const [store] = await kind.open(1, clock);
        const h = automationsHarness({ tools: [], store, clock, agentModel: model.agentModel });
        const automation = await h.automation({ prompt: 'hello' });
        await h.armApproved(automation.id);
        const [runId] = (await h.tick.execute()).runIds;
        await h.runQueued();
        expect((await h.getRun.execute({ principal: ada, runId: runId! })).state).to.equal('queued');
        const stopped = await h.stop.execute({ principal: ada, runId: runId! });
        expect(stopped).to.deep.include({ state: 'cancelled', ending: 'stopped', nextAttemptAt: null });
        clock.advance(10 * 60_000);
        await h.sweep.execute();
        await h.runQueued();
        expect(model.server.requests).to.have.length(2);
        expect((await h.getRun.execute({ principal: ada, runId: runId! })).attempts.map((a) => a.outcome)).to.deep.equal(['failed']);
      });
    });

    describe('concurrency', () => {
      it('limit 1: five simultaneous deliveries to three instances run one after another, and all of them run', async () => {
        const clock = new ManualClock(Date.now());
        const stores = await kind.open(3, clock);
        const probe = overlapProbe(40);
        const instances = stores.map((store, i) =>
          automationsHarness({
            tools: [probe.tool],
            store,
            clock,
            holder: `instance-${i}`,
            sources: { orders: new StandardWebhooksVerifier(SOURCE_SECRET) },
          }),
        );
        const [a] = instances;
        const automation = await a!.automation({
          source: 'orders',
          prompt: '/call inbox_read {}',
          concurrency: { limit: 1, whenBusy: 'queue' },
        });
        await a!.armApproved(automation.id);

        const answers = await Promise.all(
          Array.from({ length: 5 }, (_, i) => instances[i % 3]!.receive.execute(signedDelivery(`msg_order_${i}`))),
        );
        const runIds = answers.flatMap((answer) => (answer.kind === 'accepted' ? answer.runIds : []));
        expect(runIds).to.have.length(5);
        await Promise.all(instances.map((instance) => instance.runQueued()));

        expect(probe.log.most, 'two runs of the automation overlapped').to.equal(1);
        expect(new Set(probe.log.runs)).to.deep.equal(new Set(runIds));
        const runs = (await a!.listRuns.execute({ principal: ada, automationId: automation.id })).runs;
        expect(runs.map((run) => run.state)).to.deep.equal(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded']);
        expect(runs.every((run) => run.attempts.length === 1)).to.equal(true);
      });

      it('whenBusy skip: deliveries that arrive while the run is in flight are recorded as skipped', async () => {
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const notes = countingTool('inbox_read', 'read', { gate });
        const clock = new ManualClock(Date.now());
        const [store] = await kind.open(1, clock);
        const h = automationsHarness({
          tools: [notes.tool],
          store,
          clock,
          sources: { orders: new StandardWebhooksVerifier(SOURCE_SECRET) },
        });
        const automation = await h.automation({
          source: 'orders',
          prompt: '/call inbox_read {}',
          concurrency: { limit: 1, whenBusy: 'skip' },
        });
        await h.armApproved(automation.id);

        const first = await h.receive.execute(signedDelivery('msg_first'));
        const executing = h.runQueued();
        while (notes.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        await h.receive.execute(signedDelivery('msg_second'));
        await h.receive.execute(signedDelivery('msg_third'));
        await h.runQueued();
        release();
        await executing;

        const runs = (await h.listRuns.execute({ principal: ada, automationId: automation.id })).runs;
        const firstId = first.kind === 'accepted' ? first.runIds[0] : undefined;
        expect(runs.find((run) => run.id === firstId)?.state).to.equal('succeeded');
        const others = runs.filter((run) => run.id !== firstId);
        expect(others.map((run) => [run.state, run.ending])).to.deep.equal([
          ['skipped', 'skipped'],
          ['skipped', 'skipped'],
        ]);
        expect(others.every((run) => run.attempts.length === 0)).to.equal(true);
        expect(notes.calls).to.have.length(1);
        const actions = (await h.auditLog.list('ada', { limit: 100 })).events.map((e) => e.action);
        expect(actions.filter((action) => action === 'run.skipped')).to.have.length(2);

        // The slot was let go: the next delivery runs.
        await h.receive.execute(signedDelivery('msg_fourth'));
        await h.runQueued();
        expect(notes.calls).to.have.length(2);
      });

      it('slots racing on the store: of twelve runs admitted at once, exactly `limit` win', async () => {
        const clock = new ManualClock('2026-06-01T12:00:00.000Z');
        const stores = await kind.open(3, clock);
        const instances = stores.map((store, i) => automationsHarness({ tools: [], store, clock, holder: `instance-${i}` }));
        for (const limit of [1, 3]) {
          const automation = await instances[0]!.automation({
            name: `limit ${limit}`,
            prompt: 'hello',
            concurrency: { limit, whenBusy: 'queue' },
          });
          const runs = Array.from({ length: 12 }, (_, i) =>
            Run.queue({
              id: `run_race${limit}${String(i).padStart(8, '0')}`,
              automationId: automation.id,
              owner: { subject: 'ada', kind: 'user' },
              startedBy: 'porter:scheduler',
              cause: { kind: 'schedule', slot: `2026-06-01T12:0${i % 10}:00.000Z` },
              prompt: 'hello',
              input: null,
              createdAt: clock.now().toISOString(),
              dryRun: false,
              retry: { max: 0, backoffSeconds: 0 },
              concurrency: { limit, whenBusy: 'queue' },
            }),
          );
          for (const run of runs) await instances[0]!.runs.save(run);
          const answers = await Promise.all(runs.map((run, i) => instances[i % 3]!.admission.admit(run)));
          expect(
            answers.filter((answer) => answer === 'admitted'),
            `limit ${limit}`,
          ).to.have.length(limit);
          expect(answers.filter((answer) => answer === 'full')).to.have.length(12 - limit);
        }
      });
    });

    describe('dry run and rerun', () => {
      it('a dry run of a task that adds a note adds none: the read runs, the note is previewed, nothing parks', async () => {
        const model = await servedModel([
          {
            toolCalls: [
              { id: 'call_list', name: 'notes_list', arguments: '{}' },
              { id: 'call_add', name: 'notes_add', arguments: '{"text":"call the bank"}' },
            ],
          },
          { text: 'I would add the note “call the bank”.' },
        ]);
        const clock = new ManualClock('2026-06-01T12:00:00.000Z');
        const [store] = await kind.open(1, clock);
        const list = countingTool('notes_list', 'read');
        const added: unknown[] = [];
        const add: ToolDefinition = {
          name: 'notes_add',
          description: 'Adds a note',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          risk: 'write',
          preview: (input) => `Add the note “${(input as { text: string }).text}”`,
          async execute(input) {
            added.push(input);
            return { added: true };
          },
        };
        const h = automationsHarness({ tools: [list.tool, add], store, clock, agentModel: model.agentModel });
        const automation = await h.automation({ prompt: 'Add a note to call the bank', tools: ['notes_add'] });

        const run = await h.dryRun.execute({ principal: ada, automationId: automation.id });
        expect(run).to.deep.include({ state: 'succeeded', dryRun: true, cause: { kind: 'dry-run' }, startedBy: 'ada' });
        expect(added, 'the dry run added a note').to.deep.equal([]);
        expect(list.calls, 'reads run in a dry run').to.have.length(1);
        expect(run.previews).to.deep.equal([
          { toolCallId: 'call_add', tool: 'notes_add', risk: 'write', egress: false, preview: 'Add the note “call the bank”' },
        ]);
        expect((await h.list.execute({ principal: ada })).approvals, 'nothing parked for the owner').to.deep.equal([]);
        const part = run.messages.flatMap((m) => m.parts).find((p) => isToolPart(p) && p.toolCallId === 'call_add');
        expect(part).to.deep.include({ state: 'output-available' });
        expect((part as { output: unknown }).output).to.deep.include({ dryRun: true, executed: false });

        // Someone else's automation is not found.
        let refused: unknown = null;
        await h.dryRun.execute({ principal: grace, automationId: automation.id }).catch((error: unknown) => (refused = error));
        expect((refused as { code?: string } | null)?.code).to.equal('not-found');
      });

      it('a rerun starts a new run with the same input; someone else cannot rerun it', async () => {
        const clock = new ManualClock(Date.now());
        const [store] = await kind.open(1, clock);
        const h = automationsHarness({ tools: [], store, clock, sources: { orders: new StandardWebhooksVerifier(SOURCE_SECRET) } });
        const automation = await h.automation({ source: 'orders', prompt: 'Thank the customer' });
        await h.armApproved(automation.id);
        const delivered = await h.receive.execute(signedDelivery('msg_rerun', { customer: 'Ada' }));
        const [original] = delivered.kind === 'accepted' ? delivered.runIds : [];
        await h.runQueued();

        const again = await h.rerun.execute({ principal: ada, runId: original! });
        expect(again).to.deep.include({ state: 'queued', cause: { kind: 'rerun', of: original }, startedBy: 'ada', dryRun: false });
        expect(again.id).to.not.equal(original);
        await h.runQueued();
        const [first, second] = await Promise.all([
          h.getRun.execute({ principal: ada, runId: original! }),
          h.getRun.execute({ principal: ada, runId: again.id }),
        ]);
        expect(second.state).to.equal('succeeded');
        const userTexts = (run: typeof first) => run.messages.filter((m) => m.role === 'user').map((m) => m.parts);
        expect(userTexts(second)).to.deep.equal(userTexts(first));
        expect(JSON.stringify(userTexts(second))).to.include('Ada');

        let refused: unknown = null;
        await h.rerun.execute({ principal: grace, runId: original! }).catch((error: unknown) => (refused = error));
        expect((refused as { code?: string } | null)?.code).to.equal('not-found');
      });
    });

    describe('completion webhooks', () => {
      it('a run that ends sends a signed run.completed, retried after a 500, each attempt in its log', async () => {
        const receiver = await receiving([500, 200]);
        // Signatures carry the attempt's time, and standardwebhooks checks it against the real clock.
        const clock = new ManualClock(Date.now());
        const [store] = await kind.open(1, clock);
        const h = automationsHarness({ tools: [], store, clock, webhookRetryDelaysMs: [5_000, 30_000] });
        const created = await h.automation({ prompt: 'Summarise the day', notify: { url: receiver.url } });
        const secret = created.notifySecret!;
        expect(secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
        expect(created.notify).to.deep.include({ url: receiver.url });
        // Shown once: never read back, and stored only sealed.
        const read = await h.automations.find(created.id);
        expect(JSON.stringify(read!.record.data)).to.not.include(secret.slice('whsec_'.length));
        expect(JSON.stringify((await h.listRuns.execute({ principal: ada })).runs)).to.not.include('whsec_');

        await h.armApproved(created.id);
        clock.advance(60_000); // the next minute's slot is due
        const [runId] = (await h.tick.execute()).runIds;
        await h.runQueued();
        await h.deliverQueued();
        expect(receiver.received.map((r) => r.answered)).to.deep.equal([500]);
        const pending = await h.getRun.execute({ principal: ada, runId: runId! });
        expect(pending.webhook).to.deep.include({ type: 'run.completed', state: 'pending', url: receiver.url });
        expect(pending.webhook!.attempts.map((a) => [a.number, a.status])).to.deep.equal([[1, 500]]);

        // The retry's timer fires a moment before the clock says it is due (Node's timers may):
        // the attempt is not made early, nor dropped until the next sweep, but handed over for its time.
        clock.advance(4_999);
        h.webhookDispatcher.later.splice(0);
        await h.deliver.execute(pending.webhook!.id);
        expect(receiver.received).to.have.length(1);
        expect(h.webhookDispatcher.later.map((entry) => entry.id)).to.deep.equal([pending.webhook!.id]);
        clock.advance(1);
        await h.deliverQueued();
        expect(receiver.received.map((r) => r.answered)).to.deep.equal([500, 200]);
        const delivered = await h.getRun.execute({ principal: ada, runId: runId! });
        expect(delivered.webhook).to.deep.include({ state: 'delivered', nextAttemptAt: null });
        expect(delivered.webhook!.attempts.map((a) => [a.number, a.status, a.error])).to.deep.equal([
          [1, 500, 'The receiver answered 500'],
          [2, 200, null],
        ]);

        // Verified by the standardwebhooks package, with the secret shown once; both attempts carry the same id and body.
        const verifier = new Webhook(secret);
        for (const request of receiver.received) {
          const payload = verifier.verify(request.body, request.headers as Record<string, string>) as Record<string, any>;
          expect(payload).to.deep.include({ type: 'run.completed', timestamp: delivered.endedAt });
          expect(payload.data).to.deep.equal({
            runId,
            automationId: created.id,
            state: 'succeeded',
            startedAt: delivered.startedAt,
            endedAt: delivered.endedAt,
            summary: 'echo: Summarise the day',
          });
        }
        expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).to.deep.equal(new Set([delivered.webhook!.id]));
        expect(() =>
          new Webhook(`whsec_${Buffer.from('another secret, not this one').toString('base64')}`).verify(
            receiver.received[1]!.body,
            receiver.received[1]!.headers as Record<string, string>,
          ),
        ).to.throw();

        // Handed over again after delivery, nothing is sent twice.
        await h.deliver.execute(delivered.webhook!.id);
        expect(receiver.received).to.have.length(2);
      });

      it('a run that failed sends run.failed, a stopped one run.cancelled; setting notify again mints a new secret', async () => {
        const receiver = await receiving([200]);
        const clock = new ManualClock(Date.now());
        const [store] = await kind.open(1, clock);
        const model = await servedModel([{ status: 400 }]);
        const h = automationsHarness({ tools: [], store, clock, agentModel: model.agentModel });
        const created = await h.automation({ prompt: 'hello', notify: { url: receiver.url } });
        const changed = await h.change.execute({ principal: ada, automationId: created.id, notify: { url: receiver.url } });
        expect(changed.notifySecret).to.match(/^whsec_/);
        expect(changed.notifySecret).to.not.equal(created.notifySecret);
        await h.armApproved(created.id);
        clock.advance(60_000); // the next minute's slot is due
        const [failedId] = (await h.tick.execute()).runIds;
        await h.runQueued();
        clock.advance(60_000);
        const [stoppedId] = (await h.tick.execute()).runIds;
        await h.stop.execute({ principal: ada, runId: stoppedId! });
        await h.deliverQueued();
        const verifier = new Webhook(changed.notifySecret!);
        const payloads = receiver.received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as Record<string, any>);
        expect(payloads.map((p) => [p.data.runId, p.type, p.data.state]).sort()).to.deep.equal(
          [
            [failedId, 'run.failed', 'failed'],
            [stoppedId, 'run.cancelled', 'cancelled'],
          ].sort(),
        );

        // notify: null sends no more.
        await h.change.execute({ principal: ada, automationId: created.id, notify: null });
        clock.advance(60_000);
        await h.tick.execute();
        await h.runQueued();
        await h.deliverQueued();
        expect(receiver.received).to.have.length(2);
      });
    });
  });
}
