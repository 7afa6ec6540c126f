import { expect } from 'chai';
import * as oauth from 'oauth4webapi';
import { devHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { CLIENT_REDIRECT, consentInBrowser, doorRpc, initializeRequest } from '../support/door-client.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';

const insecure = { [oauth.allowInsecureRequests]: true };

/** What oauth4webapi's callback validation made of a redirect: the parameters, or the error it threw. */
function validated(as: oauth.AuthorizationServer, client: oauth.Client, location: URL, state: string): URLSearchParams | Error {
  try {
    return oauth.validateAuthResponse(as, client, location, state);
  } catch (error) {
    return error as Error;
  }
}

describe("The door's discovery and authorization responses, as oauth4webapi checks them strictly", function () {
  this.timeout(60_000);
  let host: DevHostFixture;
  let origin: URL;
  let door: URL;

  before(async () => {
    host = await devHost({ porter: { oauth: developmentOAuth() } });
    origin = new URL(host.url);
    door = new URL(`${host.url}/api/porter/mcp`);
  });
  after(async () => {
    await host.close();
  });

  const discover = async (issuer: URL) =>
    oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  const describeResource = async (resource: URL) =>
    oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, insecure));

  it('serves, at the origin root, documents of that origin: its protected resource and its authorization server', async () => {
    const atRoot = await describeResource(origin);
    expect(new URL(atRoot.resource).href).to.equal(origin.href);
    const transport = await describeResource(door);
    expect(transport.resource).to.equal(door.href);
    expect(atRoot.authorization_servers).to.deep.equal(transport.authorization_servers);
    // The issuer the transport names is found where RFC 8414 puts it, and says it is that issuer.
    const issuer = new URL(transport.authorization_servers![0]!);
    const as = await discover(issuer);
    expect(as).to.deep.include({ authorization_response_iss_parameter_supported: true, authorization_endpoint: `${door.href}/authorize` });
    expect(await discover(origin), 'the root form is the same authorization server').to.deep.equal(as);
  });

  it('serves a client that found the door through the root document, asking for the origin as its resource', async () => {
    const atRoot = await describeResource(origin);
    const as = await discover(new URL(atRoot.authorization_servers![0]!));
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none' }, insecure),
    );
    const client: oauth.Client = { client_id: registered.client_id };
    const verifier = oauth.generateRandomCodeVerifier();
    const authorize = (resource: string) => {
      const url = new URL(as.authorization_endpoint!);
      return (async () => {
        url.search = new URLSearchParams({
          client_id: client.client_id,
          redirect_uri: CLIENT_REDIRECT,
          response_type: 'code',
          state: 'root',
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          resource,
        }).toString();
        return url;
      })();
    };
    const elsewhere = (await consentInBrowser(await authorize('https://elsewhere.example/'), 'ada')).location!;
    expect(elsewhere.searchParams.get('error'), 'another resource is still refused').to.equal('invalid_target');

    const answer = (await consentInBrowser(await authorize(atRoot.resource), 'ada')).location!;
    const callback = oauth.validateAuthResponse(as, client, answer, 'root');
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, CLIENT_REDIRECT, verifier, {
        additionalParameters: { resource: atRoot.resource },
        ...insecure,
      }),
    );
    expect((await doorRpc(door.href, tokens.access_token, initializeRequest())).status, 'the token works at the door').to.equal(200);
  });

  it('names the issuer (iss) on every authorization response: the code, a refused request and a person declining', async () => {
    const as = await discover(new URL((await describeResource(door)).authorization_servers![0]!));
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none' }, insecure),
    );
    const client: oauth.Client = { client_id: registered.client_id };
    const authorize = async (state: string, fields: Record<string, string> = {}) => {
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: CLIENT_REDIRECT,
        response_type: 'code',
        scope: 'mcp',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
        code_challenge_method: 'S256',
        ...fields,
      }).toString();
      return url;
    };

    const yes = (await consentInBrowser(await authorize('yes'), 'ada')).location!;
    const declined = (await consentInBrowser(await authorize('no'), 'ada', 'deny')).location!;
    const refused = (await consentInBrowser(await authorize('bad', { code_challenge_method: 'plain' }), 'ada')).location!;
    for (const location of [yes, declined, refused]) expect(location.searchParams.get('iss'), location.href).to.equal(as.issuer);

    expect(validated(as, client, yes, 'yes')).to.be.instanceOf(URLSearchParams);
    // An error response passes the iss and state checks first, then is reported as the error it is.
    expect(validated(as, client, declined, 'no'))
      .to.be.instanceOf(oauth.AuthorizationResponseError)
      .and.include({ error: 'access_denied' });
    expect(validated(as, client, refused, 'bad'))
      .to.be.instanceOf(oauth.AuthorizationResponseError)
      .and.include({ error: 'invalid_request' });
    // And a response naming another issuer is refused before anything else.
    const forged = new URL(yes);
    forged.searchParams.set('iss', 'https://attacker.example');
    expect(validated(as, client, forged, 'yes'))
      .to.not.be.instanceOf(URLSearchParams)
      .and.not.be.instanceOf(oauth.AuthorizationResponseError);
  });
});
