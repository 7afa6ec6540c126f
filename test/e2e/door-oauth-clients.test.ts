import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { devHost } from '../support/dev-host-fixture.js';
import { BrowserlessProvider, connectSdk, consentInBrowser } from '../support/door-client.js';
import { pkcePair } from '../support/door-harness.js';
import { CLIENT_SHAPES } from '../support/mcp-client-shapes.js';
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

  describe('registration and authorization with the bodies real clients send', () => {
    for (const shape of CLIENT_SHAPES) {
      it(`${shape.name}: registers, is shown only what was kept, consents with its own scope and gets mcp`, async () => {
        const response = await fetch(`${door.href}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(shape.registration),
        });
        const registered = (await response.json()) as Record<string, unknown>;
        expect(response.status, JSON.stringify(registered)).to.equal(201);
        const kept = ['authorization_code', 'refresh_token'];
        expect(registered).to.deep.include({ scope: 'mcp', response_types: ['code'], redirect_uris: shape.registration.redirect_uris });
        expect((registered.grant_types as string[]).every((grant) => kept.includes(grant))).to.equal(true);
        const known = [
          'client_id',
          'client_secret',
          'client_secret_expires_at',
          'client_id_issued_at',
          'redirect_uris',
          'client_name',
          'grant_types',
          'response_types',
          'token_endpoint_auth_method',
          'scope',
          'client_uri',
          'logo_uri',
          'software_id',
          'software_version',
        ];
        expect(Object.keys(registered).filter((key) => !known.includes(key)), 'nothing the door did not keep').to.deep.equal([]);

        const { verifier, challenge } = pkcePair();
        const authorize = new URL(`${door.href}/authorize`);
        authorize.search = new URLSearchParams({
          response_type: 'code',
          client_id: registered.client_id as string,
          redirect_uri: shape.redirectUri,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 'st',
          resource: door.href,
          ...(shape.authorizeScope ? { scope: shape.authorizeScope } : {}),
        }).toString();
        const answer = await consentInBrowser(authorize, 'ada');
        expect(answer.status).to.equal(303);
        const code = answer.location!.searchParams.get('code');
        expect(code, answer.location!.href).to.be.a('string');
        const secret = registered.client_secret as string | undefined;
        const tokens = await form(`${door.href}/token`, {
          grant_type: 'authorization_code',
          code: code!,
          redirect_uri: shape.redirectUri,
          code_verifier: verifier,
          client_id: registered.client_id as string,
          ...(secret ? { client_secret: secret } : {}),
        });
        const body = (await tokens.json()) as Record<string, unknown>;
        expect(tokens.status, JSON.stringify(body)).to.equal(200);
        expect(body.scope).to.equal('mcp');
        // A refresh asking for more gets the same narrowed scope.
        const refreshed = await form(`${door.href}/token`, {
          grant_type: 'refresh_token',
          refresh_token: body.refresh_token as string,
          scope: 'mcp offline_access',
          client_id: registered.client_id as string,
          ...(secret ? { client_secret: secret } : {}),
        });
        expect(refreshed.status).to.equal(200);
        expect(((await refreshed.json()) as { scope: string }).scope).to.equal('mcp');
      });
    }

    it('still refuses a registration with a redirect URI that could leak a code', async () => {
      for (const redirect_uris of [['http://evil.example/cb'], ['javascript:alert(1)'], ['https://ok.example/cb#x'], []]) {
        const response = await fetch(`${door.href}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_name: 'x', redirect_uris, grant_types: ['authorization_code'] }),
        });
        expect(response.status, JSON.stringify(redirect_uris)).to.equal(400);
        expect(((await response.json()) as { error: string }).error).to.equal('invalid_redirect_uri');
      }
    });
  });
});
