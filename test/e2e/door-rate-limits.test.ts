import { expect } from 'chai';
import { SdkHttpError } from '@modelcontextprotocol/client';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { devHostPerTest } from '../support/dev-host-fixture.js';
import { accessTokenFor, connectSdk, connectSdkV2, doorRpc, initializeRequest } from '../support/door-client.js';
import type { Part } from '../support/turn-client.js';
import { waitInWords } from '../../domain/usage/wait-in-words.js';

/** What the door answers a call over a breaker or a budget with, as the JSON-RPC error in a 429's body. */
interface RateLimited {
  readonly code: number;
  readonly message: string;
  readonly data: { readonly status: string; readonly budget: string; readonly retryAfterSeconds: number };
}

function rateLimitedOf(body: string): RateLimited {
  return (JSON.parse(body) as { error: RateLimited }).error;
}

describe('The MCP door over a breaker or a budget: rate-limit answers, never approvals', function () {
  this.timeout(60_000);
  const start = devHostPerTest();

  it('70 quick calls of a read tool with the default breaker: 60 run, 10 are told they are rate limited and when to retry, 0 approvals', async () => {
    const { host, door } = await start();
    const { client } = await connectSdkV2(door, 'ada');
    const answers: Array<'ran' | RateLimited> = [];
    for (let i = 0; i < 70; i++) {
      answers.push(
        await client.callTool({ name: 'notes_list', arguments: {} }).then(
          (result) => {
            expect(result.isError ?? false, 'a call under the breaker runs').to.equal(false);
            return 'ran' as const;
          },
          (error: unknown) => {
            // The SDK client surfaces the door's 429 as an HTTP error carrying its status and body.
            expect(error).to.be.instanceOf(SdkHttpError);
            expect((error as SdkHttpError).status).to.equal(429);
            return rateLimitedOf((error as SdkHttpError).data.text as string);
          },
        ),
      );
    }
    expect(answers.filter((a) => a === 'ran')).to.have.length(60);
    const refused = answers.filter((a): a is RateLimited => a !== 'ran');
    expect(refused).to.have.length(10);
    for (const answer of refused) {
      expect(answer.message).to.match(
        /^Rate limited\. The toolCallsPerMinute breaker tripped \(60 tool calls a minute\): notes_list was not run; try again in (about )?\d+ (seconds?|minutes?)$/,
      );
      expect(answer.data).to.include({ status: 'rate-limited', budget: 'toolCallsPerMinute' });
      expect(answer.data.retryAfterSeconds).to.be.within(1, 61);
      expect(answer.message).to.contain(`try again ${waitInWords(answer.data.retryAfterSeconds)}`);
    }
    const ada = host.client.as('ada');
    expect((await ada.json('GET', '/approvals')).body.approvals, 'nothing parked for the person to answer').to.deep.equal([]);
    const tripped = (await ada.json('GET', '/activity')).body.events.filter((e: Part) => e.action === 'breaker.tripped');
    expect(tripped).to.have.length(10);
    expect(tripped[0]).to.deep.include({ outcome: 'rate-limited' });
    expect(tripped[0].details).to.deep.include({ breaker: 'toolCallsPerMinute', max: 60, tool: 'notes_list', venue: 'mcp' });
    await client.close();
  });

  it('over the toolCalls budget: HTTP 429 with Retry-After, and a JSON-RPC error naming the budget and when to retry', async () => {
    const { host, door } = await start({ limits: { toolCalls: { max: 2, windowSeconds: 3600 } } });
    const token = await accessTokenFor(door, 'bea');
    const opened = await doorRpc(door.href, token, initializeRequest());
    const session = opened.headers.get('mcp-session-id')!;
    await doorRpc(door.href, token, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const call = (id: number) =>
      doorRpc(door.href, token, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'notes_list', arguments: {} } }, session);
    expect((await call(2)).status).to.equal(200);
    expect((await call(3)).status).to.equal(200);

    const refused = await call(4);
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('content-type')).to.match(/^application\/json/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).to.be.within(3500, 3700);
    const body = (await refused.json()) as { id: number; error: RateLimited };
    expect(body.id, 'the answer is to the call it refuses').to.equal(4);
    expect(body.error.data).to.deep.equal({ status: 'rate-limited', budget: 'toolCalls', retryAfterSeconds: retryAfter });
    expect(body.error.code).to.equal(-32029);
    expect(body.error.message).to.equal(`Rate limited. The toolCalls budget is spent (2 per hour); try again ${waitInWords(retryAfter)}`);
    const approvals = (await host.client.as('bea').json('GET', '/approvals')).body.approvals;
    expect(approvals).to.deep.equal([]);

    // The session itself goes on: a tools/list is no tool call and is answered.
    const listed = await doorRpc(door.href, token, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, session);
    expect(listed.status).to.equal(200);
  });

  it('the v1 SDK client (@modelcontextprotocol/sdk) surfaces the 429 with the rate-limit answer in its message', async () => {
    const { door } = await start({ breakers: { toolCallsPerMinute: 2 } });
    const { client } = await connectSdk(door, 'cai');
    for (const _ of [1, 2]) expect((await client.callTool({ name: 'notes_list', arguments: {} })).isError ?? false).to.equal(false);
    const error = await client.callTool({ name: 'notes_list', arguments: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).to.equal(429);
    expect((error as Error).message).to.match(
      /Rate limited\. The toolCallsPerMinute breaker tripped \(2 tool calls a minute\).*try again in (about )?\d+ (seconds?|minutes?)/,
    );
    await client.close();
  });
});
