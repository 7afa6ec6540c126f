import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { devHost } from '../support/dev-host-fixture.js';
import { BrowserlessProvider, connectSdk } from '../support/door-client.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import type { WireClient } from '../support/turn-client.js';

type Host = DevHost & { client: WireClient };

function form(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Counts the times the client had to send the person to the consent page. */
class CountingProvider extends BrowserlessProvider {
  consents = 0;

  override async redirectToAuthorization(url: URL): Promise<void> {
    this.consents++;
    await super.redirectToAuthorization(url);
  }
}

describe('The door with the clients people use', function () {
  this.timeout(120_000);
  let host: Host;
  let door: URL;

  before(async () => {
    host = await devHost();
    door = new URL(`${host.url}/api/porter/mcp`);
  });

  after(async () => {
    await host.close();
  });

  it('keeps the SDK client signed in when four tool calls in flight meet a lapsed access token, ten rounds running', async () => {
    const { client, provider } = await connectSdk(door, 'ada', new CountingProvider('ada'));
    const counting = provider as CountingProvider;
    expect(counting.consents, 'the first connection asks once').to.equal(1);
    const clientId = provider.clientInformation()!.client_id;
    let failed = 0;
    for (let round = 0; round < 10; round++) {
      // The access token lapses: every call in flight meets a 401 and refreshes with the same refresh token.
      const lapsed = await form(`${door.href}/revoke`, {
        token: provider.tokens()!.access_token,
        token_type_hint: 'access_token',
        client_id: clientId,
      });
      expect(lapsed.status).to.equal(200);
      const before = provider.tokenHistory.length;
      const calls = await Promise.allSettled(Array.from({ length: 4 }, () => client.callTool({ name: 'notes_list', arguments: {} })));
      for (const call of calls) {
        if (call.status === 'rejected' || (call.value as CallToolResult).isError) failed++;
      }
      expect(provider.tokenHistory.length - before, `round ${round}: the calls refreshed`).to.be.greaterThan(0);
    }
    expect({ failed, consents: counting.consents }).to.deep.equal({ failed: 0, consents: 1 });
    await client.close();
  });
});
