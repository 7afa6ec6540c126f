import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { createWireClient, type WireClient, type WireSchemas } from '../../composition/client.js';
import { createPorter, defineTool, type Porter } from '../../composition/index.js';
import { scriptedModel, signWebhook } from '../../composition/testing.js';
import { WIRE_TYPES_FILE, wireTypesSource } from '../../scripts/wire-types.js';
import { until } from '../support/eventually.js';
import { serve, type RunningServer } from '../support/http-server.js';
import { WireClient as TurnClient } from '../support/turn-client.js';

const ORDERS_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('The typed wire client (porter-runtime/client createWireClient)', function () {
  this.timeout(60_000);

  it('is typed by the committed wire types, which are what `npm run wire-types` writes from the OpenAPI document', async () => {
    const committed = readFileSync(WIRE_TYPES_FILE, 'utf8');
    const fresh = await wireTypesSource();
    expect(committed === fresh, 'adapters/client/wire-types.ts is out of date: run npm run wire-types').to.equal(true);
  });

  describe('against a Porter host served on a loopback port', () => {
    let porter: Porter;
    let server: RunningServer;
    let wire: string;
    let ada: WireClient;

    before(async () => {
      const notes: string[] = [];
      porter = await createPorter(
        {
          databaseUrl: 'memory:',
          secret: 'a-secret-for-the-wire-client-tests-0123456789',
          logger: 'silent',
          sandbox: false,
          model: scriptedModel(),
          principal: (req) => {
            const user = req.headers['x-user'];
            return typeof user === 'string' ? { subject: user, kind: 'user' } : null;
          },
          tools: [
            defineTool({
              name: 'notes_add',
              description: 'Add a note.',
              input: z.strictObject({ text: z.string() }),
              risk: 'write',
              execute: async ({ text }) => ({ added: text, count: notes.push(text) }),
            }),
          ],
          webhooks: { sources: { orders: { kind: 'standard', secret: ORDERS_SECRET } } },
        },
        {},
      );
      server = await serve(porter.listener);
      wire = `${server.url}${porter.mount}`;
      ada = createWireClient({ wire, headers: () => ({ 'x-user': 'ada' }) });
    });

    after(async () => {
      await server?.close();
      await porter?.close();
    });

    it('lists the approvals a turn parked, decides one (remembered as a grant) and lists the grants', async () => {
      const turns = new TurnClient(wire, { 'x-user': 'ada' });
      await turns.say(await turns.newThread(), '/call notes_add {"text":"milk"}');

      const pending = await ada.GET('/approvals');
      expect(pending.response.status).to.equal(200);
      const approvals: WireSchemas['Approval'][] = pending.data!.approvals;
      expect(approvals).to.have.length(1);
      expect(approvals[0]!.request?.tool).to.equal('notes_add');
      expect(approvals[0]!.request?.preview).to.be.a('string');

      const decided = await ada.POST('/approvals/{id}/decide', {
        params: { path: { id: approvals[0]!.id } },
        body: { approve: true, remember: { scope: 'tool', duration: 'standing' } },
      });
      expect(decided.error).to.equal(undefined);
      expect(decided.data!.state).to.equal('approved');
      expect((await ada.GET('/approvals')).data!.approvals).to.deep.equal([]);

      const grants = await ada.GET('/grants', { params: { query: { limit: 10 } } });
      expect(grants.data!.grants.map((grant) => [grant.tool, grant.duration])).to.deep.equal([['notes_add', 'standing']]);
      expect(grants.data!.nextCursor).to.equal(null);
    });

    it('creates, arms and lists automations; a delivery signed by signWebhook starts a run', async () => {
      const created = await ada.POST('/automations', {
        body: { name: 'on orders', trigger: { kind: 'webhook', source: 'orders' }, task: { prompt: 'Summarise this order.' } },
      });
      expect(created.response.status).to.equal(201);
      const automation = created.data!;
      expect(automation.armed).to.equal(false);

      // Arming has no body: the client still sends it as JSON.
      const armed = await ada.POST('/automations/{id}/arm', { params: { path: { id: automation.id } } });
      expect(armed.response.status).to.equal(200);
      const listed = await ada.GET('/automations');
      expect(listed.data!.automations.map((a) => [a.id, a.name, a.armed])).to.deep.equal([[automation.id, 'on orders', true]]);

      const body = JSON.stringify({ order: 42 });
      const delivered = await fetch(`${wire}/webhooks/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signWebhook({ secret: ORDERS_SECRET, body }) },
        body,
      });
      expect(delivered.status).to.equal(202);
      const { runIds } = (await delivered.json()) as { runIds: string[] };
      const run = await until(
        async () => (await ada.GET('/runs/{id}', { params: { path: { id: runIds[0]! } } })).data!,
        (current) => current.state === 'succeeded',
        { timeoutMs: 20_000, what: 'the run to succeed' },
      );
      expect(run.startedBy).to.equal('porter:webhook:orders');
      expect(run.automationId).to.equal(automation.id);
    });

    it("answers a refusal as the error envelope, typed, and sends the client's cookie-carrying changes as JSON", async () => {
      const missing = await ada.GET('/automations/{id}', { params: { path: { id: 'atm_missing' } } });
      expect(missing.response.status).to.equal(404);
      expect(missing.data).to.equal(undefined);
      expect(missing.error!.error.code).to.equal('not-found');

      // A browser's client carries the anonymous session cookie: the CSRF floor asks every change to be JSON.
      const anonymous = createWireClient({ wire });
      const first = await anonymous.POST('/threads', { body: {} });
      const cookie = first.response.headers
        .getSetCookie()
        .map((line) => line.split(';')[0]!)
        .join('; ');
      const browser = createWireClient({ wire, headers: { cookie } });
      const thread = await browser.POST('/threads', { body: {} });
      expect(thread.response.status).to.equal(201);
      const stopped = await browser.POST('/threads/{id}/stop', { params: { path: { id: thread.data!.id } } });
      expect(stopped.response.status, JSON.stringify(stopped.error)).to.equal(200);
      expect(stopped.data).to.deep.equal({ stopped: false });
    });

    it("reaches Porter in the test's own process through porter.fetch, no port", async () => {
      const inProcess = createWireClient({
        wire: 'http://localhost/api/porter',
        headers: { 'x-user': 'ada' },
        fetch: (input, init) => porter.fetch(new Request(input, init)),
      });
      const created = await inProcess.POST('/automations', {
        body: { name: 'in process', trigger: { kind: 'schedule', cron: '@daily' }, task: { prompt: 'Hello.' } },
      });
      expect(created.response.status).to.equal(201);
      const listed = await createWireClient({ wire, headers: { 'x-user': 'ada' } }).GET('/automations');
      expect(listed.data!.automations.map((automation) => automation.id)).to.include(created.data!.id);
    });
  });
});
