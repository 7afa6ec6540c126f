import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { expect } from 'chai';
import { z } from 'zod';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { devHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { toolPart, WireClient } from '../support/turn-client.js';
import { connectSdk } from '../support/door-client.js';
import { until } from '../support/eventually.js';
import { DEMO_SECRET, deliverDemo } from '../support/signed-delivery.js';
import { actAs, defineTool } from '../../composition/index.js';
import { demoTools } from '../../composition/dev-host/demo-tools.js';
import { createArmed } from '../support/armed-automation.js';
import { PNG } from '../support/upload-samples.js';

const TICK_SECRET = 'a-traces-tick-secret-0123456789';
/** What the person says: it must never reach a span. */
const SAID = 'tell nobody: the plum pudding recipe';
const COOKIE = 'porter_extra=cookie-value-never-on-spans';
const BEARER = 'Bearer token-value-never-on-spans';

/** A read tool that calls the host's own API, to see what Porter sends it. */
const whoami = defineTool({
  name: 'whoami',
  description: 'Who the host thinks you are',
  input: z.strictObject({}),
  risk: 'read',
  async execute(_input, { hostFetch }) {
    return { status: (await hostFetch('/me')).status };
  },
});

describe('Traces through @opentelemetry/api (in-memory exporter, the development host)', function () {
  this.timeout(30_000);
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let host: DevHostFixture;
  let hostApi: Server;
  const hostCalls: IncomingHttpHeaders[] = [];

  before(async () => {
    provider.register();
    hostApi = createServer((req, res) => {
      hostCalls.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => hostApi.listen(0, '127.0.0.1', resolve));
    const address = hostApi.address() as { port: number };
    host = await devHost({
      env: {
        PORTER_TICK_SECRET: TICK_SECRET,
        PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET,
        PORTER_BASE_URL: `http://127.0.0.1:${address.port}`,
      },
      porter: { tools: [...demoTools(), whoami], actAs: actAs.jwt({ secret: 'an-act-as-secret-for-the-traces-test-0123' }) },
    });
  });

  after(async () => {
    await host?.close();
    await new Promise((resolve) => hostApi?.close(resolve));
    await provider.shutdown();
    // Other suites in this process run without a provider, as a host without an SDK would.
    trace.disable();
    context.disable();
    propagation.disable();
  });

  beforeEach(() => exporter.reset());

  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().filter((s) => s.name === name);
  const idOf = (span: ReadableSpan) => span.spanContext().spanId;
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
  /** Whether `span` descends from `ancestor` through the recorded spans. */
  function under(span: ReadableSpan, ancestor: ReadableSpan): boolean {
    const byId = new Map(spans().map((s) => [idOf(s), s]));
    for (let at: ReadableSpan | undefined = span; at; at = byId.get(parentOf(at) ?? '')) if (at !== span && at === ancestor) return true;
    return false;
  }
  const client = (extra: Record<string, string> = {}) =>
    new WireClient(host.client.base, { ...host.client.as('ada').headers, cookie: COOKIE, authorization: BEARER, ...extra });

  /** Ada's automation on deliveries to the demo source, created and armed: its id. */
  async function armedOnDemo(name: string, prompt: string): Promise<string> {
    const { created, armed } = await createArmed(client(), { name, trigger: { kind: 'webhook', source: 'demo' }, task: { prompt } });
    expect(armed.status).to.equal(200);
    return created.body.id;
  }

  it('one turn with a parked call, its decision and its execution make one connected trace, with no message text or secret on any span', async () => {
    const ada = client();
    const thread = await ada.newThread();
    const parked = await ada.say(thread, `/call notes_add ${JSON.stringify({ text: SAID })}`);
    const part = toolPart(parked.message, 'notes_add')!;
    expect(part.state).to.equal('approval-requested');
    const approvalId = part.approval.id as string;

    await until(
      async () => named('porter.turn').length,
      (n) => n === 1,
    );
    const [turn] = named('porter.turn');
    const traceId = turn!.spanContext().traceId;
    expect(turn!.attributes).to.include({ 'porter.thread.id': thread, 'porter.venue': 'chat', 'porter.turn.finish_reason': 'tool-calls' });
    expect(turn!.attributes['porter.subject']).to.match(/^[0-9a-f]{32}$/);

    // The AI SDK's own spans (one per model step) nest under the turn. (The thread's title, asked of
    // the model once the first answer is in, is a call of its own, in a trace of its own.)
    const steps = spans().filter((s) => s.name === 'ai.streamText' && s.spanContext().traceId === traceId);
    expect(steps.length).to.be.greaterThan(0);
    for (const step of steps) expect(under(step, turn!), 'ai.streamText under porter.turn').to.equal(true);
    expect(spans().some((s) => s.name === 'ai.streamText.doStream' && under(s, turn!))).to.equal(true);

    const [call] = named('porter.tool_call');
    expect(under(call!, turn!)).to.equal(true);
    expect(call!.attributes).to.include({
      'porter.tool.name': 'notes_add',
      'porter.guard.decision': 'parked',
      'porter.guard.risk': 'write',
      'porter.approval.id': approvalId,
      'porter.thread.id': thread,
    });

    // Decided in a request of its own, a day later for all Porter knows: still the turn's trace.
    exporter.reset();
    expect((await ada.json('POST', `/approvals/${approvalId}/decide`, { approve: true })).status).to.equal(200);
    const [decision] = named('porter.approval.decision');
    expect(decision!.spanContext().traceId).to.equal(traceId);
    expect(parentOf(decision!)).to.equal(idOf(call!));
    expect(decision!.attributes).to.include({ 'porter.approval.id': approvalId, 'porter.approval.approved': true });

    await ada.continueTurn(thread, parked.message);
    await until(
      async () => named('porter.turn').length,
      (n) => n === 1,
    );
    const [execution] = named('porter.approval.execute');
    expect(execution!.spanContext().traceId).to.equal(traceId);
    expect(parentOf(execution!)).to.equal(idOf(call!));
    expect(execution!.attributes).to.include({ 'porter.approval.id': approvalId, 'porter.tool.name': 'notes_add', 'porter.outcome': 'ok' });
    // The turn that ran it is linked.
    const [second] = named('porter.turn');
    expect(execution!.links.map((l) => l.context.spanId)).to.include(idOf(second!));

    // Nothing said, and no credential, on any span.
    const everything = JSON.stringify([...spans(), turn, call].map((s) => [s!.name, s!.attributes, s!.events, s!.resource.attributes]));
    for (const secret of ['plum pudding', 'cookie-value-never-on-spans', 'token-value-never-on-spans', 'ada"']) {
      expect(everything).not.to.contain(secret);
    }
  });

  it('continues the trace a request names in traceparent, also with no propagator registered', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const ada = client({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    const thread = await ada.newThread();
    await ada.say(thread, 'hello');
    await until(
      async () => named('porter.turn').length,
      (n) => n === 1,
    );
    expect(named('porter.turn')[0]!.spanContext().traceId).to.equal(traceId);
    expect(parentOf(named('porter.turn')[0]!)).to.equal('00f067aa0ba902b7');

    exporter.reset();
    propagation.disable();
    try {
      const other = '0af7651916cd43dd8448eb211c80319c';
      const bob = client({ traceparent: `00-${other}-b7ad6b7169203331-01` });
      await bob.say(thread, 'hello again');
      await until(
        async () => named('porter.turn').length,
        (n) => n === 1,
      );
      expect(named('porter.turn')[0]!.spanContext().traceId).to.equal(other);
    } finally {
      provider.register();
    }
  });

  it("carries traceparent into calls to the host's API (present), never the turn's text", async () => {
    const ada = client();
    const thread = await ada.newThread();
    hostCalls.length = 0;
    const turn = await ada.say(thread, '/call whoami {}');
    expect(toolPart(turn.message, 'whoami')!.output).to.deep.equal({ status: 200 });
    expect(hostCalls).to.have.length(1);
    const call = named('porter.tool_call').find((s) => s.attributes['porter.tool.name'] === 'whoami')!;
    expect(call.attributes).to.include({
      'porter.guard.decision': 'run',
      'porter.guard.because': 'read-class',
      'porter.guard.risk': 'read',
    });
    const traceparent = hostCalls[0]!.traceparent as string;
    expect(traceparent).to.match(new RegExp(`^00-${call.spanContext().traceId}-[0-9a-f]{16}-01$`));
    // Present: the person's own credentials go along, as before.
    expect(hostCalls[0]!.cookie).to.contain('cookie-value-never-on-spans');
  });

  it('a webhook delivery, the run it starts and a scheduler tick each have their span', async () => {
    const automationId = await armedOnDemo('on demo deliveries', 'Summarise this delivery.');
    const runIds = await deliverDemo(host.client.base, '{"order":42}');
    await until(
      async () => named('porter.run').length,
      (n) => n === 1,
    );
    const [delivery] = named('porter.webhook.delivery');
    expect(delivery!.attributes).to.include({
      'porter.webhook.source': 'demo',
      'porter.webhook.verified': true,
      'porter.webhook.deduplicated': false,
      'porter.runs.started': 1,
    });
    const [run] = named('porter.run');
    expect(run!.attributes).to.include({ 'porter.run.id': runIds[0] });
    const runTurn = await until(
      async () => named('porter.turn').find((s) => s.attributes['porter.run.id'] === runIds[0]),
      (s) => s !== undefined,
    );
    expect(runTurn!.attributes).to.include({ 'porter.automation.id': automationId, 'porter.venue': 'automation' });
    expect(under(runTurn!, run!)).to.equal(true);

    const tick = await fetch(`${host.client.base}/tick`, { method: 'POST', headers: { authorization: `Bearer ${TICK_SECRET}` } });
    expect(tick.status).to.equal(200);
    const [ticked] = named('porter.tick');
    expect(ticked!.attributes['porter.runs.started']).to.equal(0);
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.to.contain(TICK_SECRET);
  });

  it('a door request has its server span in the trace its traceparent names, without the bearer it carried', async () => {
    const traceId = 'aaf92f3577b34da6a3ce929d0e0e4736';
    const answer = await fetch(`${host.client.base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer door-token-never-on-spans',
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(answer.status).to.equal(401);
    const [door] = named('porter.door.request');
    expect(door!.spanContext().traceId).to.equal(traceId);
    expect(door!.kind).to.equal(1); // SpanKind.SERVER
    expect(door!.attributes).to.include({ 'http.request.method': 'POST', 'http.response.status_code': 401 });
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.to.contain('door-token-never-on-spans');
  });

  it("carries traceparent into the host's API when acting as the person (a run, away), beside the act-as material, never on a span", async () => {
    const automationId = await armedOnDemo('who am i on deliveries', '/call whoami {}');
    hostCalls.length = 0;
    await deliverDemo(host.client.base, '{}');
    const call = await until(
      async () => named('porter.tool_call').find((s) => s.attributes['porter.tool.name'] === 'whoami'),
      (s) => s !== undefined,
    );
    expect(call!.attributes).to.include({
      'porter.presence': 'away',
      'porter.venue': 'automation',
      'porter.automation.id': automationId,
    });
    const sent = hostCalls.find((h) => h.traceparent?.includes(call!.spanContext().traceId));
    expect(sent, 'a host call in the run trace').to.not.equal(undefined);
    const jwt = (sent!.authorization as string).replace(/^Bearer /, '');
    expect(jwt.split('.')).to.have.length(3);
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.to.contain(jwt);
  });

  it("a tool call through the door: the request's server span holds the door's tool call, which holds the guard's, none with the token", async () => {
    // A host of its own: the other one's PORTER_BASE_URL (the stand-in host API) would be the door's issuer.
    const doorHost = await devHost();
    const { client: mcp, provider } = await connectSdk(new URL(`${doorHost.client.base}/mcp`), 'ada');
    try {
      exporter.reset();
      await mcp.callTool({ name: 'notes_list', arguments: {} });
      const [doorCall] = named('porter.door.tool_call');
      expect(doorCall!.attributes).to.include({ 'porter.tool.name': 'notes_list', 'porter.outcome': 'ran' });
      const guarded = named('porter.tool_call').find((s) => s.attributes['porter.tool.name'] === 'notes_list')!;
      expect(guarded.attributes).to.include({ 'porter.venue': 'mcp', 'porter.guard.decision': 'run' });
      expect(parentOf(guarded)).to.equal(idOf(doorCall!));
      const request = named('porter.door.request').find((s) => under(doorCall!, s));
      expect(request, 'the door request span holds the tool call').to.not.equal(undefined);
      const token = provider.tokens()?.access_token;
      expect(token).to.be.a('string');
      expect(JSON.stringify(spans().map((s) => s.attributes))).not.to.contain(token);
    } finally {
      await mcp.close();
      await doorHost.close();
    }
  });

  it('a knowledge_search call holds a porter.knowledge.search span with how many passages it found, never the query', async () => {
    await host.porter.knowledge.add({ title: 'Traced handbook', format: 'text', content: 'The quokka rota changes on Mondays.' });
    const ada = client();
    await ada.say(await ada.newThread(), '/knowledge quokka rota');
    await until(
      async () => named('porter.knowledge.search').length,
      (count) => count === 1,
    );
    const [search] = named('porter.knowledge.search');
    expect(search!.attributes).to.include({ 'porter.knowledge.hits': 1, 'porter.knowledge.limit': 5 });
    const call = named('porter.tool_call').find((s) => s.attributes['porter.tool.name'] === 'knowledge_search');
    expect(call && under(search!, call), 'the search nests under its tool call').to.equal(true);
    expect(JSON.stringify(search!.attributes)).to.not.contain('quokka');
  });

  it('an upload is one porter.file.upload span with the file, its size and judged type, never its name or bytes', async () => {
    const ada = client();
    const thread = await ada.newThread();
    const answer = await fetch(`${ada.base}/threads/${thread}/files?filename=secret-plans.png`, {
      method: 'POST',
      headers: { ...ada.headers, 'content-type': 'image/png' },
      body: new Blob([new Uint8Array(PNG)]),
    });
    expect(answer.status).to.equal(201);
    const file = (await answer.json()) as { id: string };
    await until(
      async () => named('porter.file.upload').length,
      (count) => count === 1,
    );
    const [span] = named('porter.file.upload');
    expect(span!.attributes).to.include({
      'porter.thread.id': thread,
      'porter.file.id': file.id,
      'porter.file.size': PNG.length,
      'porter.file.media_type': 'image/png',
    });
    expect(JSON.stringify(span!.attributes)).to.not.contain('secret-plans');
  });
});
