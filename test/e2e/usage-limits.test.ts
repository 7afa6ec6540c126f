import { expect } from 'chai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import type { PorterOptions } from '../../composition/config/porter-options.js';
import { PorterConfigError } from '../../composition/config/porter-config-error.js';
import { demoPrincipal } from '../../composition/dev-host/demo-principal.js';
import { demoTools } from '../../composition/dev-host/demo-tools.js';
import { serve, type RunningServer } from '../support/http-server.js';
import { WireClient, type Part } from '../support/turn-client.js';
import { CallingModel } from '../support/calling-model.js';
import { devHost } from '../support/dev-host-fixture.js';
import { until } from '../support/eventually.js';
import { deliverWebhook } from '../support/webhook-delivery.js';
import { createArmed } from '../support/armed-automation.js';

const DEMO_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

interface Deployment {
  readonly porter: Porter;
  readonly server: RunningServer;
  readonly client: WireClient;
  close(): Promise<void>;
}

/** A development deployment (the offline scripted model from the ladder) with the demo tools and sign-in, on an in-memory store, with `options`. */
async function deployment(options: PorterOptions & { model?: LanguageModelV4 } = {}): Promise<Deployment> {
  const porter = await createPorter(
    {
      development: true,
      databaseUrl: 'memory:',
      secret: 'a-usage-limits-secret-for-the-tests-0123456789',
      logger: 'silent',
      principal: demoPrincipal,
      tools: demoTools(),
      scheduler: 'external',
      webhooks: { sources: { demo: { kind: 'standard', secret: DEMO_SECRET } } },
      ...options,
    },
    {},
  );
  const server = await serve(porter.listener);
  const client = new WireClient(`${server.url}${porter.mount}`);
  return {
    porter,
    server,
    client,
    async close() {
      await server.close();
      await porter.close();
    },
  };
}

const turn = (who: WireClient, threadId: string, text: string) =>
  who.send('POST', `/threads/${threadId}/turn`, { message: { role: 'user', parts: [{ type: 'text', text }] } });

describe('Usage limits and breakers over the wire', function () {
  this.timeout(30_000);
  const open: Deployment[] = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });
  const start = async (options: Parameters<typeof deployment>[0] = {}) => {
    const made = await deployment(options);
    open.push(made);
    return made;
  };

  it('a turn over the turns budget is 429 rate-limited with Retry-After and the budget named; GET /usage says so, for the caller only', async () => {
    const { client } = await start({ limits: { turns: { max: 2, windowSeconds: 3600 } } });
    const ada = client.as('ada');
    const bob = client.as('bob');
    const before = await ada.json('GET', '/usage');
    expect(before.status).to.equal(200);
    expect(before.body.budgets.turns).to.deep.include({
      used: 0,
      max: 2,
      windowSeconds: 3600,
      remaining: 2,
      resetsAt: null,
      retryAfter: null,
    });
    expect(before.body.budgets).to.have.all.keys('turns');

    const thread = await ada.newThread();
    await ada.say(thread, 'one');
    await ada.say(thread, 'two');
    const refused = await turn(ada, thread, 'three');
    const refusedAt = Date.now();
    expect(refused.status).to.equal(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter)
      .to.be.greaterThan(3500)
      .and.at.most(3600 + 60);
    const body = await refused.json();
    expect(body.error.code).to.equal('rate-limited');
    expect(body.error.details).to.deep.equal({ budget: 'turns', retryAfter });
    expect(body.error.message).to.include('turns');

    const after = await ada.json('GET', '/usage');
    const { retryAfter: left, ...turns } = after.body.budgets.turns;
    expect(turns).to.deep.include({ used: 2, max: 2, remaining: 0 });
    // The same wait, counted down by the whole seconds that passed since the refusal (a slow machine crosses one).
    expect(left).to.be.within(retryAfter - Math.ceil((Date.now() - refusedAt) / 1000) - 1, retryAfter);
    expect(Date.parse(after.body.budgets.turns.resetsAt)).to.be.greaterThan(Date.now() + 3500_000);
    // Bob's budget is his own: untouched by ada's, and his turn goes through.
    expect((await bob.json('GET', '/usage')).body.budgets.turns).to.deep.include({ used: 0, remaining: 2 });
    const bobs = await bob.newThread();
    expect((await bob.say(bobs, 'hello')).status).to.equal(200);
    // The refused turn left the thread free: nothing is stuck holding it.
    const thread2 = await bob.newThread();
    expect((await bob.say(thread2, 'again')).status).to.equal(200);
    expect((await turn(bob, thread2, 'third')).status).to.equal(429);
  });

  it('a turn whose tokens run out between steps ends its stream with an error part naming the budget', async () => {
    // The scripted model's tool step spends four tokens: the step after it finds none left.
    const { client } = await start({ limits: { tokens: { max: 1, windowSeconds: 60 } } });
    const ada = client.as('ada');
    const thread = await ada.newThread();
    const read = await ada.say(thread, '/call notes_list {}');
    const error = read.chunks.find((c) => c.type === 'error') as { errorText: string } | undefined;
    expect(error?.errorText).to.match(/tokens budget is spent \(1 per minute\); try again in (about )?\d+ (seconds?|minutes?)/);
    const data = read.chunks.find((c) => c.type === 'data-porter-error') as { data: Part } | undefined;
    expect(data?.data).to.deep.include({ code: 'rate-limited', budget: 'tokens' });
    expect(read.chunks.at(-1)).to.deep.include({ type: 'finish', finishReason: 'error' });
    // The call before it ran and is kept; the next turn is refused up front.
    expect(read.message.parts.find((p) => p.type === 'tool-notes_list')).to.deep.include({ state: 'output-available' });
    // The scripted model counts a word as a token: the three words asked and the one call it answered.
    expect((await ada.json('GET', '/usage')).body.budgets.tokens).to.deep.include({ used: 4, remaining: 0 });
    const refused = await turn(ada, thread, 'more');
    expect(refused.status).to.equal(429);
    expect((await refused.json()).error.details.budget).to.equal('tokens');
  });

  it('a tool call over the toolCalls budget ends the turn with an error part; that call does not run', async () => {
    const { client } = await start({
      limits: { toolCalls: { max: 2, windowSeconds: 600 } },
      model: new CallingModel({ tool: 'notes_list', callsPerStep: 3, steps: 1 }),
    });
    const ada = client.as('ada');
    const read = await ada.say(await ada.newThread(), 'go');
    expect(read.chunks.filter((c) => c.type === 'tool-output-available')).to.have.length(2);
    expect(read.chunks.find((c) => c.type === 'tool-output-error')).to.deep.include({ toolCallId: 'call_3' });
    const error = read.chunks.find((c) => c.type === 'error') as { errorText: string } | undefined;
    expect(error?.errorText).to.match(/toolCalls budget is spent \(2 per 10 minutes\)/);
    expect(read.chunks.at(-1)).to.deep.include({ type: 'finish', finishReason: 'error' });
    expect((await ada.json('GET', '/usage')).body.budgets.toolCalls).to.deep.include({ used: 2, remaining: 0 });
  });

  it('the 61st tool call in a minute parks for approval in a turn, with a breaker.tripped audit event', async () => {
    const { client } = await start({ model: new CallingModel({ tool: 'notes_list', callsPerStep: 61, steps: 1 }) });
    const ada = client.as('ada');
    const thread = await ada.newThread();
    const read = await ada.say(thread, 'list them all');
    const ran = read.chunks.filter((c) => c.type === 'tool-output-available');
    const asked = read.chunks.filter((c) => c.type === 'tool-approval-request') as Array<{ toolCallId: string; approvalId: string }>;
    expect(ran).to.have.length(60);
    expect(asked).to.have.length(1);
    expect(asked[0]!.toolCallId).to.equal('call_61');
    const approval = await ada.json('GET', `/approvals/${asked[0]!.approvalId}`);
    expect(approval.body.state).to.equal('pending');
    expect(approval.body.request).to.deep.include({ tool: 'notes_list', risk: 'read' });
    const activity = await ada.json('GET', '/activity');
    const tripped = activity.body.events.find((e: Part) => e.action === 'breaker.tripped');
    expect(tripped).to.deep.include({ outcome: 'parked' });
    expect(tripped.details).to.deep.include({ breaker: 'toolCallsPerMinute', max: 60, tool: 'notes_list', venue: 'chat' });
  });

  it('breakers can be changed or turned off: with toolCallsPerMinute 5 the 6th parks; with false nothing parks', async () => {
    const five = await start({
      breakers: { toolCallsPerMinute: 5 },
      model: new CallingModel({ tool: 'notes_list', callsPerStep: 6, steps: 1 }),
    });
    const read = await five.client.as('ada').say(await five.client.as('ada').newThread(), 'go');
    expect(read.chunks.filter((c) => c.type === 'tool-output-available')).to.have.length(5);
    expect(read.chunks.filter((c) => c.type === 'tool-approval-request')).to.have.length(1);

    const off = await start({ breakers: false, model: new CallingModel({ tool: 'notes_list', callsPerStep: 61, steps: 1 }) });
    const all = await off.client.as('ada').say(await off.client.as('ada').newThread(), 'go');
    expect(all.chunks.filter((c) => c.type === 'tool-output-available')).to.have.length(61);
    expect(all.chunks.filter((c) => c.type === 'tool-approval-request')).to.have.length(0);
  });

  it('a run that loops on a write tool is stopped at the 21st write: 20 ran, the 21st did not, with the audit event', async () => {
    const { client } = await start({ maxSteps: 50, model: new CallingModel({ tool: 'notes_add', input: { text: 'again' } }) });
    const ada = client.as('ada');
    await createArmed(ada, {
      name: 'loops',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'add notes forever', tools: ['notes_add'] },
    });
    const [runId] = (await deliverWebhook(client.base, 'demo', DEMO_SECRET, '{"go":true}')).runIds;
    const run = await until(
      () => ada.json('GET', `/runs/${runId}`),
      (r) => r.body.state === 'failed' || r.body.state === 'succeeded' || r.body.state === 'cancelled',
      { what: 'the looping run to end' },
    );
    expect(run.body.state).to.equal('failed');
    expect(run.body.error).to.include('writesPerRun').and.include('notes_add was not run');
    const calls = run.body.messages.flatMap((m: { parts: Part[] }) => m.parts).filter((p: Part) => p.type === 'tool-notes_add');
    expect(calls.filter((p: Part) => p.state === 'output-available')).to.have.length(20);
    expect(calls).to.have.length(21);
    expect(calls[20]).to.deep.include({ state: 'output-error' });
    const activity = await ada.json('GET', '/activity?limit=100');
    const tripped = activity.body.events.find((e: Part) => e.action === 'breaker.tripped');
    expect(tripped).to.deep.include({ outcome: 'run-stopped' });
    expect(tripped.details).to.deep.include({ breaker: 'writesPerRun', max: 20, tool: 'notes_add', venue: 'automation', runId });
  });

  it('runs and app generations have budgets too: a run over `runs` ends failed saying so, an app over `appGenerations` is 429', async () => {
    const { client } = await start({
      limits: { runs: { max: 1, windowSeconds: 86_400 }, appGenerations: { max: 1, windowSeconds: 3600 } },
    });
    const ada = client.as('ada');
    const created = await ada.json('POST', '/automations', {
      name: 'says hi',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'hi' },
    });
    await ada.json('POST', `/automations/${created.body.id}/arm`, {});
    const runIds: string[] = [];
    for (const payload of ['{"n":1}', '{"n":2}']) runIds.push(...(await deliverWebhook(client.base, 'demo', DEMO_SECRET, payload)).runIds);
    const ended = await Promise.all(
      runIds.map((runId) =>
        until(
          () => ada.json('GET', `/runs/${runId}`),
          (r) => ['succeeded', 'failed', 'cancelled'].includes(r.body.state),
          { what: `run ${runId} to end` },
        ),
      ),
    );
    expect(ended.map((r) => r.body.state).sort()).to.deep.equal(['failed', 'succeeded']);
    expect(ended.find((r) => r.body.state === 'failed')!.body.error).to.match(/runs budget is spent \(1 per day\)/);
    expect((await ada.json('GET', '/usage')).body.budgets.runs).to.deep.include({ used: 1, remaining: 0 });

    expect((await ada.json('POST', '/apps', { prompt: 'a reading list' })).status).to.equal(201);
    const refused = await ada.json('POST', '/apps', { prompt: 'another list' });
    expect(refused.status).to.equal(429);
    expect(refused.body.error.details.budget).to.equal('appGenerations');
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 3660);
  });

  it('refuses a bad `limits`, `breakers`, `maxTurnsInFlight` or `trustProxy` at createPorter, naming the option', async () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ limits: { turns: { max: 0, windowSeconds: 60 } } }, /limits\.turns\.max/],
      [{ limits: { turns: { max: 1 } } }, /limits\.turns\.windowSeconds/],
      [{ limits: { messages: { max: 1, windowSeconds: 60 } } }, /limits/],
      [{ limits: { tokens: { max: 1.5, windowSeconds: 60 } } }, /limits\.tokens\.max/],
      [{ limits: { runs: { max: 1, windowSeconds: 10 ** 9 } } }, /limits\.runs\.windowSeconds/],
      [{ limits: 'lots' }, /limits/],
      [{ breakers: { toolCallsPerMinute: 0 } }, /breakers/],
      [{ breakers: true }, /breakers/],
      [{ breakers: { writesPerRun: 20, other: 1 } }, /breakers/],
      [{ limits: { anonymousPerAddress: true } }, /limits\.anonymousPerAddress/],
      [{ limits: { anonymousPerAddress: { messages: { max: 1, windowSeconds: 60 } } } }, /limits\.anonymousPerAddress/],
      [{ limits: { anonymousPerAddress: { turns: { max: 0, windowSeconds: 60 } } } }, /limits\.anonymousPerAddress/],
      [{ maxTurnsInFlight: 0 }, /maxTurnsInFlight/],
      [{ maxTurnsInFlight: true }, /maxTurnsInFlight/],
      [{ maxTurnsInFlight: 1.5 }, /maxTurnsInFlight/],
      [{ trustProxy: { hops: 0 } }, /trustProxy/],
      [{ trustProxy: { addressHeader: 'x forwarded' } }, /trustProxy/],
      [{ trustProxy: 'yes' }, /trustProxy/],
    ];
    for (const [options, message] of bad) {
      const failed = await createPorter(
        { development: true, databaseUrl: 'memory:', logger: 'silent', ...(options as PorterOptions) },
        {},
      ).then(
        (porter) => porter.close().then(() => null),
        (error: unknown) => error,
      );
      expect(failed, JSON.stringify(options)).to.be.instanceOf(PorterConfigError);
      expect((failed as Error).message, JSON.stringify(options)).to.match(message);
    }
  });
});

describe('PORTER_LIMITS in the development host', function () {
  this.timeout(30_000);

  it('reads the budgets from the JSON: GET /usage shows them and a turn over them is 429', async () => {
    const host = await devHost({
      env: {
        PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET,
        PORTER_LIMITS: '{"turns":{"max":1,"windowSeconds":120},"runs":{"max":3,"windowSeconds":86400}}',
      },
    });
    try {
      const ada = host.client.as('ada');
      const usage = await ada.json('GET', '/usage');
      expect(usage.body.budgets).to.have.all.keys('turns', 'runs');
      expect(usage.body.budgets.runs).to.deep.include({ used: 0, max: 3, windowSeconds: 86400, remaining: 3 });
      const thread = await ada.newThread();
      await ada.say(thread, 'hello');
      const refused = await turn(ada, thread, 'again');
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 122);
    } finally {
      await host.close();
    }
  });

  it('stops the start with a clear error on JSON that does not parse, hostile or not budgets; the value is never echoed', async () => {
    const cases: Array<[string, RegExp]> = [
      ['{"turns":', /limits \(from PORTER_LIMITS\): is not valid JSON/],
      ['[1,2,3]', /limits \(from PORTER_LIMITS\)/],
      ['{"__proto__":{"max":1,"windowSeconds":1}}', /PORTER_LIMITS/],
      ['{"turns":{"max":-1,"windowSeconds":60}}', /limits\.turns\.max \(from PORTER_LIMITS\)/],
      [`{"turns":{"max":1,"windowSeconds":60},"pad":"${'x'.repeat(5000)}"}`, /PORTER_LIMITS\): is longer than/],
      ['{"tokens":{"max":"lots","windowSeconds":60}}', /limits\.tokens\.max \(from PORTER_LIMITS\)/],
      ['{"turn":{"max":1,"windowSeconds":60}}', /limits\.turn \(from PORTER_LIMITS\): unknown option — did you mean `limits\.turns`\?/],
    ];
    for (const [value, message] of cases) {
      const failed = await devHost({ env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET, PORTER_LIMITS: value } }).then(
        (host) => host.close().then(() => null),
        (error: unknown) => error,
      );
      expect(failed, value.slice(0, 60)).to.be.instanceOf(PorterConfigError);
      expect((failed as Error).message, value.slice(0, 60)).to.match(message);
      expect((failed as Error).message).to.not.include('lots');
    }
  });
});
