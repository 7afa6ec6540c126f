import { expect } from 'chai';
import { devHost } from '../support/dev-host-fixture.js';
import type { WireClient } from '../support/turn-client.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';

type Host = DevHost & { client: WireClient };

/** Parks a call in a new thread and approves it with a standing grant for the tool. */
async function grantStanding(client: WireClient, call: string): Promise<void> {
  const thread = await client.newThread();
  const turn = await client.say(thread, call);
  const part = turn.message.parts.find((p) => p.type.startsWith('tool-')) as { approval: { id: string } };
  const decided = await client.json('POST', `/approvals/${part.approval.id}/decide`, {
    approve: true,
    remember: { scope: 'tool', duration: 'standing' },
  });
  expect(decided.status).to.equal(200);
}

describe('POST /sync/impact through the running host', function () {
  this.timeout(30_000);
  let host: Host;
  before(async () => {
    host = await devHost();
  });
  after(() => host.close());

  const impact = (tools: string[]) =>
    fetch(`${host.url}${host.porter.mount}/sync/impact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tools }),
    });

  it('counts, deployment-wide and without a principal, the grants that depend on the given tools', async () => {
    const before = await (await impact(['notes_add', 'notes_clear'])).json();
    expect(before.families.grants).to.deep.equal({ total: 0, byTool: { notes_add: 0, notes_clear: 0 } });

    await grantStanding(host.client.as('ada'), '/call notes_add {"text":"a"}');
    await grantStanding(host.client.as('bob'), '/call notes_add {"text":"b"}');
    await grantStanding(host.client.as('bob'), '/call notes_clear {}');

    const response = await impact(['notes_add', 'notes_clear', 'web_fetch']);
    expect(response.status).to.equal(200);
    const after = await response.json();
    expect(after.tools).to.deep.equal(['notes_add', 'notes_clear', 'web_fetch']);
    expect(after.families.grants).to.deep.equal({ total: 3, byTool: { notes_add: 2, notes_clear: 1, web_fetch: 0 } });

    // A revoked grant no longer depends on its tool.
    const bobGrants = await host.client.as('bob').json('GET', '/grants');
    const clearGrant = bobGrants.body.grants.find((g: { tool: string }) => g.tool === 'notes_clear');
    expect((await host.client.as('bob').send('DELETE', `/grants/${clearGrant.id}`)).status).to.equal(204);
    expect((await (await impact(['notes_clear'])).json()).families.grants).to.deep.equal({ total: 0, byTool: { notes_clear: 0 } });
  });

  it('counts the automations whose tasks use the given tools, each automation once', async () => {
    const carol = host.client.as('carol');
    const create = (name: string, tools: string[]) =>
      carol.json('POST', '/automations', {
        name,
        trigger: { kind: 'schedule', cron: '0 9 * * *' },
        task: { prompt: `run ${name}`, tools },
      });
    expect((await create('both', ['notes_add', 'notes_list'])).status).to.equal(201);
    expect((await create('one', ['notes_list'])).status).to.equal(201);
    expect((await create('none', [])).status).to.equal(201);
    const counts = await (await impact(['notes_add', 'notes_list', 'web_fetch'])).json();
    expect(counts.families.automations).to.deep.equal({ total: 2, byTool: { notes_add: 1, notes_list: 2, web_fetch: 0 } });
  });

  it('counts the apps whose actions run the given tools, each app once, across owners', async () => {
    const appWith = async (user: string, instructions: string[]) => {
      const client = host.client.as(user);
      const app = (await client.json('POST', '/apps', { prompt: 'notes board' })).body;
      for (const instruction of instructions)
        expect((await client.json('POST', `/apps/${app.id}/edit`, { instruction })).status).to.equal(200);
      return { client, id: app.id as string };
    };
    const before = await (await impact(['notes_add'])).json();
    expect(before.families.apps).to.deep.equal({ total: 0, byTool: { notes_add: 0 } });

    const both = await appWith('fay', ['add a form for the tool notes_add', 'add a button for the tool notes_list']);
    await appWith('gus', ['add a button for the tool notes_list', 'add another button for the tool notes_list']);
    await appWith('gus', ['add a note about tools']);
    const counts = await (await impact(['notes_add', 'notes_list', 'web_fetch'])).json();
    expect(Object.keys(counts.families)).to.deep.equal(['apps', 'automations', 'grants']);
    expect(counts.families.apps).to.deep.equal({ total: 2, byTool: { notes_add: 1, notes_list: 2, web_fetch: 0 } });

    // A removed app no longer depends on its tools.
    expect((await both.client.send('DELETE', `/apps/${both.id}`)).status).to.equal(204);
    expect((await (await impact(['notes_add', 'notes_list'])).json()).families.apps).to.deep.equal({
      total: 1,
      byTool: { notes_add: 0, notes_list: 1 },
    });
  });

  it('refuses a body without tools, or with something that is not a tool name', async () => {
    for (const body of [{}, { tools: [] }, { tools: ['../etc'] }, { tools: ['notes_add'], extra: 1 }]) {
      const response = await fetch(`${host.url}${host.porter.mount}/sync/impact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect((await response.json()).error.code).to.equal('validation');
    }
  });

  it('takes no principal: answers while the host resolver throws, without ever calling it', async () => {
    let resolved = 0;
    const principal = () => {
      resolved += 1;
      throw new Error('no session store');
    };
    const strict = await devHost({ porter: { principal } });
    try {
      const wire = `${strict.url}${strict.porter.mount}`;
      // A principal route fails (the resolver throws), which proves the resolver is this one.
      expect((await fetch(`${wire}/threads`)).status).to.equal(500);
      const before = resolved;
      const response = await fetch(`${wire}/sync/impact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tools: ['notes_add'] }),
      });
      expect(response.status).to.equal(200);
      expect((await response.json()).families.grants).to.deep.equal({ total: 0, byTool: { notes_add: 0 } });
      expect(resolved).to.equal(before);
      expect(response.headers.get('set-cookie')).to.equal(null);
    } finally {
      await strict.close();
    }
  });

  it('answers 404 in the production composition, where it is not mounted', async () => {
    const production = await devHost({ env: { NODE_ENV: 'production' } });
    try {
      const response = await fetch(`${production.url}${production.porter.mount}/sync/impact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tools: ['notes_add'] }),
      });
      expect(response.status).to.equal(404);
      expect((await response.json()).error.code).to.equal('not-found');
    } finally {
      await production.close();
    }
  });
});
