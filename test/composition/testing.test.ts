import { expect } from 'chai';
import { streamText, stepCountIs, tool } from 'ai';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { createPorter, defineTool, type Porter } from '../../composition/index.js';
import { doorToken, scriptedModel, signWebhook, type ScriptedTurn } from '../../composition/testing.js';
import { StandardWebhooksVerifier } from '../../adapters/webhooks/standard-webhooks-verifier.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A run of the AI SDK over `model` with a `notes_add` tool that runs without asking: the text and the calls made. */
async function converse(model: ReturnType<typeof scriptedModel>, prompt: string) {
  const added: string[] = [];
  const result = streamText({
    model,
    prompt,
    stopWhen: stepCountIs(3),
    tools: {
      notes_add: tool({
        inputSchema: z.object({ text: z.string() }),
        execute: async ({ text }) => ({ added: text, count: added.push(text) }),
      }),
    },
  });
  return { text: await result.text, added };
}

describe('porter-runtime/testing', () => {
  describe('scriptedModel', () => {
    it('echoes, and calls a tool on `/call <tool> <json>` then reports what it returned', async () => {
      expect((await converse(scriptedModel(), 'hello there')).text).to.equal('echo: hello there');
      const called = await converse(scriptedModel(), '/call notes_add {"text":"milk"}');
      expect(called.added).to.deep.equal(['milk']);
      expect(called.text).to.equal('notes_add returned {"added":"milk","count":1}');
    });

    it("asks a host's script first, with the person's text and the tool results; undefined leaves the step to the commands", async () => {
      const seen: ScriptedTurn[] = [];
      const model = scriptedModel({
        script: (turn) => {
          seen.push(turn);
          if (turn.toolResults) return `Noted (${turn.toolResults.map((r) => r.tool).join(', ')}).`;
          if (turn.text.startsWith('remember ')) return { call: 'notes_add', input: { text: turn.text.slice('remember '.length) } };
          return undefined;
        },
      });
      const remembered = await converse(model, 'remember eggs');
      expect(remembered).to.deep.equal({ text: 'Noted (notes_add).', added: ['eggs'] });
      expect(seen[1]).to.deep.equal({
        text: 'remember eggs',
        toolResults: [{ tool: 'notes_add', output: { added: 'eggs', count: 1 }, denied: false }],
      });
      expect((await converse(model, 'anything else')).text).to.equal('echo: anything else');
    });

    it('plays a list of replies, one per step, then falls back to the commands', async () => {
      const model = scriptedModel({ script: [{ call: 'notes_add', input: { text: 'bread' } }, 'Added bread.'] });
      expect(await converse(model, 'add bread please')).to.deep.equal({ text: 'Added bread.', added: ['bread'] });
      expect((await converse(model, 'and now?')).text).to.equal('echo: and now?');
    });
  });

  describe('signWebhook', () => {
    it('signs as the Standard Webhooks library verifies, and as Porter verifies', () => {
      const body = JSON.stringify({ order: 42 });
      const headers = signWebhook({ secret: SECRET, body });
      expect(headers['webhook-id']).to.match(/^msg_/);
      expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).to.be.lessThan(5);
      expect(new Webhook(SECRET).verify(body, { ...headers })).to.deep.equal({ order: 42 });
      expect(() => new Webhook(SECRET).verify(`${body} `, { ...headers }), 'another body').to.throw();
      const verdict = new StandardWebhooksVerifier(SECRET).verify(
        { source: 'orders', headers: { ...headers }, body: Buffer.from(body) },
        new Date(),
      );
      expect(verdict).to.deep.equal({ ok: true, deliveryId: headers['webhook-id'] });
    });

    it('takes the id and timestamp it is given, as the library would sign them', () => {
      const at = new Date('2026-03-01T12:00:00Z');
      const headers = signWebhook({ secret: SECRET, body: new TextEncoder().encode('{"a":1}'), id: 'msg_fixed', timestamp: at });
      expect(headers).to.deep.equal({
        'webhook-id': 'msg_fixed',
        'webhook-timestamp': String(at.getTime() / 1000),
        'webhook-signature': new Webhook(SECRET).sign('msg_fixed', at, '{"a":1}'),
      });
    });
  });

  describe('doorToken', function () {
    this.timeout(30_000);
    let porter: Porter;

    before(async () => {
      porter = await createPorter(
        {
          databaseUrl: 'memory:',
          secret: 'a-secret-for-the-testing-helpers-0123456789',
          logger: 'silent',
          sandbox: false,
          mcp: true,
          oauth: {
            principal: (subject) => (subject === 'ada' ? { subject, kind: 'user', name: 'Ada' } : null),
            signIn: (req) => (req.headers['x-user'] === 'ada' ? { subject: 'ada', kind: 'user' } : null),
          },
          tools: [
            defineTool({
              name: 'whoami',
              description: 'Who is calling.',
              input: z.object({}),
              risk: 'read',
              execute: async (_input, context) => ({ subject: context.principal.subject }),
            }),
          ],
        },
        {},
      );
    });

    after(() => porter?.close());

    const rpc = (token: string, body: unknown, session?: string) =>
      porter.fetch(
        new Request(`http://localhost${porter.mount}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(session ? { 'mcp-session-id': session } : {}),
          },
          body: JSON.stringify(body),
        }),
      );

    it("runs the door's OAuth flow for the signed-in person: the token calls the door's tools as them", async () => {
      const token = await doorToken(porter, { signIn: { 'x-user': 'ada' } });
      expect(token.door).to.equal('http://localhost/api/porter/mcp');
      expect(token.scope).to.equal('mcp');
      expect(token.expiresIn).to.be.greaterThan(0);
      expect(token.refreshToken).to.be.a('string');

      const initialized = await rpc(token.accessToken, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host test', version: '1' } },
      });
      expect(initialized.status).to.equal(200);
      const session = initialized.headers.get('mcp-session-id')!;
      await initialized.body?.cancel();
      const called = await rpc(
        token.accessToken,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
        session,
      );
      expect(called.status).to.equal(200);
      expect(await called.text()).to.contain('{\\"subject\\":\\"ada\\"}');
    });

    it('names the sign-in when oauth.signIn does not know the headers', async () => {
      let refused: unknown;
      await doorToken(porter, { signIn: { 'x-user': 'mallory' } }).catch((error: unknown) => (refused = error));
      expect((refused as Error).message).to.match(/consent page answered 401: does oauth\.signIn recognise/);
    });
  });
});
