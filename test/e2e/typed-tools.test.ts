import { expect } from 'chai';
import { z } from 'zod';
import { tool } from 'ai';
import { sharedDevHost } from '../support/dev-host-fixture.js';
import { textOf, toolPart, type WireClient } from '../support/turn-client.js';
import { defineTool } from '../../composition/index.js';

const orders = new Set(['ord_1']);

/** A host's tools as the AI SDK's ToolSet-style record: defineTool results and AI SDK tools side by side. */
const tools = {
  orders_lookup: defineTool({
    name: 'orders_lookup',
    description: 'Find one of your orders',
    input: z.strictObject({
      orderId: z
        .string()
        .regex(/^ord_\d+$/)
        .refine(async (id) => orders.has(id), 'there is no such order'),
      limit: z.number().int().min(1).max(50).default(10),
    }),
    risk: 'read',
    async execute({ orderId, limit }) {
      return { orderId, limit };
    },
  }),
  fragile: defineTool({
    name: 'fragile',
    description: 'A tool whose input check breaks',
    input: z.object({ q: z.string() }).superRefine(() => {
      throw new Error('the lookup service is down');
    }),
    risk: 'read',
    execute: async () => 'never',
  }),
  // No risk given: a tool in the record asks, like a write.
  weather: tool({
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string().min(1) }),
    execute: async ({ city }, { abortSignal, toolCallId }) => ({
      city,
      sky: 'clear',
      live: abortSignal?.aborted === false,
      call: typeof toolCallId,
    }),
  }),
  forecast: {
    ...tool({
      description: 'Tomorrow in a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, tomorrow: 'rain' }),
    }),
    risk: 'read' as const,
  },
};

describe('Typed host tools through the development host (scripted model, stock AI SDK reader)', function () {
  this.timeout(30_000);
  let ada: WireClient;

  sharedDevHost(
    (started) => ({ ada } = started),
    () => ({ porter: { tools } }),
  );

  it('answers input the model got wrong with an output-error part the model reads, parks nothing, and the thread goes on', async () => {
    const thread = await ada.newThread();
    const wrongType = await ada.say(thread, '/call orders_lookup {"orderId": 7}');
    expect(wrongType.status).to.equal(200);
    const part = toolPart(wrongType.message, 'orders_lookup')!;
    expect(part.state).to.equal('output-error');
    expect(part.errorText).to.equal('Invalid call: /orderId Invalid input: expected string, received number');
    expect(textOf(wrongType.message), 'the model read the error back').to.contain('orders_lookup failed: Invalid call: /orderId');

    const extra = await ada.say(thread, '/call orders_lookup {"orderId": "ord_1", "verbose": true}');
    expect(toolPart(extra.message, 'orders_lookup')).to.deep.include({
      state: 'output-error',
      errorText: 'Invalid call: (input) Unrecognized key: "verbose"',
    });
    const missing = await ada.say(thread, '/call orders_lookup {}');
    expect(toolPart(missing.message, 'orders_lookup')!.errorText).to.contain('/orderId');
    expect((await ada.json('GET', '/approvals')).body.approvals).to.deep.equal([]);

    const good = await ada.say(thread, '/call orders_lookup {"orderId": "ord_1"}');
    expect(toolPart(good.message, 'orders_lookup')).to.deep.include({ state: 'output-available', output: { orderId: 'ord_1', limit: 10 } });
    expect(textOf((await ada.say(thread, 'still there?')).message)).to.equal('echo: still there?');
    const stored = await ada.json('GET', `/threads/${thread}`);
    expect(stored.body.messages).to.have.length(10);
  });

  it("answers a refinement that rejects, and a schema that throws, as the tool's error", async () => {
    const thread = await ada.newThread();
    const unknownOrder = await ada.say(thread, '/call orders_lookup {"orderId": "ord_404"}');
    expect(toolPart(unknownOrder.message, 'orders_lookup')).to.deep.include({
      state: 'output-error',
      errorText: 'Invalid call: /orderId there is no such order',
    });
    const broken = await ada.say(thread, '/call fragile {"q": "x"}');
    expect(toolPart(broken.message, 'fragile')).to.deep.include({
      state: 'output-error',
      errorText: 'Invalid call: (input) could not be checked: the lookup service is down',
    });
    expect(
      broken.chunks.some((c) => c.type === 'error'),
      'the turn itself did not fail',
    ).to.equal(false);
  });

  it('runs AI SDK tools from the record: without a risk it asks first, with risk read it runs, each given its execution options', async () => {
    const thread = await ada.newThread();
    const forecast = await ada.say(thread, '/call forecast {"city": "Oslo"}');
    expect(toolPart(forecast.message, 'forecast')).to.deep.include({
      state: 'output-available',
      output: { city: 'Oslo', tomorrow: 'rain' },
    });

    const parked = await ada.say(thread, '/call weather {"city": "Oslo"}');
    const part = toolPart(parked.message, 'weather')!;
    expect(part.state).to.equal('approval-requested');
    const card = parked.message.parts.find((p) => p.type === 'data-porter-approval') as { data: { risk: string } };
    expect(card.data.risk).to.equal('write');
    expect((await ada.json('POST', `/approvals/${part.approval.id}/decide`, { approve: true })).status).to.equal(200);
    const resumed = await ada.continueTurn(thread, parked.message);
    expect(toolPart(resumed.message, 'weather')).to.deep.include({
      state: 'output-available',
      output: { city: 'Oslo', sky: 'clear', live: true, call: 'string' },
    });
  });
});
