import { expect } from 'chai';
import { strToU8, zipSync } from 'fflate';
import { tinyDocument } from '../support/apps-documents.js';
import { sharedDevHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { accessTokenFor, initializeRequest } from '../support/door-client.js';
import type { WireClient } from '../support/turn-client.js';

/** JSON text nested `depth` levels deep (objects and arrays in turn). */
const deep = (depth: number) => `${'{"a":['.repeat(depth / 2)}1${']}'.repeat(depth / 2)}`;
const DEEP = deep(5_000);

describe('JSON nested past the depth limit is 400 before validation, wherever it comes in', function () {
  this.timeout(30_000);
  let host: DevHostFixture;
  let ada: WireClient;
  let appId: string;
  sharedDevHost((started) => ({ host, ada } = started));

  before(async () => {
    appId = (await ada.json('POST', '/apps', { prompt: 'todo list' })).body.id;
  });

  const raw = (method: string, path: string, body: string, type = 'application/json') =>
    fetch(`${host.client.base}${path}`, { method, headers: { ...ada.headers, 'content-type': type }, body });

  it('refuses 5,000 levels in records, action input, fn bodies, message metadata and thread bodies with validation, never 500', async () => {
    const threadId = await ada.newThread();
    const bodies: Array<[string, string, string]> = [
      ['PUT', `/apps/${appId}/records/items`, `{"data":${DEEP}}`],
      ['PUT', `/apps/${appId}/records/items/rec1`, `{"data":${DEEP}}`],
      ['POST', `/apps/${appId}/actions/save`, `{"input":${DEEP}}`],
      ['POST', `/apps/${appId}/fn/streak`, DEEP],
      ['POST', `/threads/${threadId}/turn`, `{"message":{"role":"user","parts":[{"type":"text","text":"hi"}],"metadata":${DEEP}}}`],
      ['POST', '/threads', `{"metadata":${DEEP}}`],
      ['POST', '/automations', DEEP],
    ];
    for (const [method, path, body] of bodies) {
      const answer = await raw(method, path, body);
      expect(answer.status, `${method} ${path}`).to.equal(400);
      const { error } = await answer.json();
      expect(error.code).to.equal('validation');
      expect(error.message).to.match(/deeper than 64 levels/);
    }
    // 64 levels are fine as far as depth goes: a record holding them is stored.
    const stored = await raw('PUT', `/apps/${appId}/records/items`, `{"data":${deep(62)}}`);
    expect(stored.status).to.equal(201);
  });

  it('refuses an app file whose app.json nests too deep', async () => {
    const manifest = JSON.stringify(tinyDocument()).replace(/}$/, `,"extra":${DEEP}}`);
    const answer = await fetch(`${host.client.base}/apps/import`, {
      method: 'POST',
      headers: { ...ada.headers, 'content-type': 'application/vnd.porter.app' },
      body: zipSync({ 'app.json': strToU8(manifest) }),
    });
    expect(answer.status).to.equal(400);
    expect((await answer.json()).error.message).to.match(/app.json nests deeper than 64 levels/);
  });

  it('refuses a door JSON-RPC body (tools/call arguments) and client metadata nested too deep, and the door keeps answering', async () => {
    const door = new URL(`${host.url}/api/porter/mcp`);
    const headers = {
      authorization: `Bearer ${await accessTokenFor(door, 'ada')}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_add","arguments":{"text":"x","more":${DEEP}}}}`;
    const refused = await fetch(door, { method: 'POST', headers, body: call });
    expect(refused.status).to.equal(400);
    expect((await refused.json()).error.message).to.match(/deeper than 64 levels/);
    const registered = await fetch(`${door.href}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"client_name":"deep","redirect_uris":["http://127.0.0.1/cb"],"x":${deep(1_000)}}`,
    });
    expect(registered.status).to.equal(400);
    expect((await registered.json()).error).to.equal('invalid_client_metadata');
    const opened = await fetch(door, {
      method: 'POST',
      headers,
      body: JSON.stringify(initializeRequest()),
    });
    expect(opened.status).to.equal(200);
  });
});
