import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syncPins } from '../../composition/apps-sync.js';
import { devHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { hostComponents } from '../support/apps-pins.js';
import { readTurn, WireClient } from '../support/turn-client.js';
import { createPorter } from '../../composition/create-porter.js';
import { serve } from '../support/http-server.js';

const DEMO_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const turnBody = (text: string) => ({ message: { role: 'user', parts: [{ type: 'text', text }] } });

/** An anonymous visitor: a client that keeps the cookie its first request was given, nothing else. */
class Visitor extends WireClient {
  private cookie = '';

  constructor(base: string, headers: Record<string, string> = {}) {
    super(base, headers);
  }

  override async send(method: string, path: string, body?: unknown): Promise<Response> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...this.headers, ...(this.cookie ? { cookie: this.cookie } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const set = response.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (set.length) this.cookie = set.join('; ');
    return response;
  }
}

/** What a 429 says: its Retry-After and its envelope's details. */
async function refusal(response: Response | { status: number; headers: Headers; body: any }) {
  expect(response.status).to.equal(429);
  const body = response instanceof Response ? await response.json() : response.body;
  expect(body.error.code).to.equal('rate-limited');
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).to.be.greaterThan(0);
  expect(body.error.details.retryAfter).to.equal(retryAfter);
  return { retryAfter, details: body.error.details as Record<string, unknown>, message: body.error.message as string };
}

const tokensUsed = async (who: WireClient) => (await who.json('GET', '/usage')).body.budgets.tokens.used as number;

describe('Budgets with no side doors, through the development host', function () {
  this.timeout(60_000);
  let host: DevHostFixture | null = null;
  let components: Awaited<ReturnType<typeof hostComponents>> | null = null;
  let folder: string | null = null;
  afterEach(async () => {
    await host?.close();
    await components?.remove();
    if (folder) await rm(folder, { recursive: true, force: true });
    host = null;
    components = null;
    folder = null;
  });

  it('new anonymous cookies from one address share its budget: four sessions get five turns, not twenty', async () => {
    host = await devHost({ env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET, PORTER_LIMITS: '{"turns":{"max":5,"windowSeconds":3600}}' } });
    let ran = 0;
    const refusals: Array<Awaited<ReturnType<typeof refusal>>> = [];
    const visitors = [1, 2, 3, 4].map(() => new Visitor(host!.client.base));
    for (const visitor of visitors) {
      const thread = await visitor.newThread();
      for (let i = 0; i < 5; i++) {
        const answer = await visitor.send('POST', `/threads/${thread}/turn`, turnBody(`hello ${i}`));
        if (answer.status === 200) {
          await readTurn(answer);
          ran += 1;
        } else refusals.push(await refusal(answer));
      }
    }
    expect(ran).to.equal(5);
    expect(refusals).to.have.length(15);
    expect(refusals[0]!.details).to.deep.include({ budget: 'turns', sharedBy: 'address' });
    expect(refusals[0]!.retryAfter).to.be.within(3500, 3660);
    const usage = (await visitors[3]!.json('GET', '/usage')).body;
    expect(usage.budgets.turns).to.deep.include({ used: 0, remaining: 5 });
    expect(usage.addressBudgets.turns).to.deep.include({ used: 5, remaining: 0 });
    // A signed-in person is not counted by address.
    const ada = host.client.as('ada');
    expect((await ada.say(await ada.newThread(), 'hello')).status).to.equal(200);
  });

  it('a dry run, a dry run rerun, a seed with an instruction and a rebase are 429 with Retry-After once spent, and the model is not asked', async () => {
    components = await hostComponents();
    folder = await mkdtemp(join(tmpdir(), 'porter-side-doors-'));
    const database = { PORTER_DATABASE_URL: `sqlite:${join(folder, 'porter.db')}` };
    // `porter sync` marks the fork drifted, as a host's deploy would run it, on the same database.
    const sync = (manifest: string) =>
      syncPins(
        { development: true, logger: 'silent', pins: manifest, secret: 'a-development-secret-for-the-tests-0123456789' },
        { ...database, NODE_ENV: 'development' },
      );
    host = await devHost({
      env: {
        ...database,
        PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET,
        PORTER_LIMITS:
          '{"runs":{"max":1,"windowSeconds":3600},"appGenerations":{"max":2,"windowSeconds":3600},"tokens":{"max":1000000,"windowSeconds":3600}}',
      },
      porter: { pins: components.manifestFile },
    });
    const ada = host.client.as('ada');
    const automation = await ada.json('POST', '/automations', {
      name: 'hi',
      trigger: { kind: 'webhook', source: 'demo' },
      task: { prompt: 'hi' },
    });
    const dry = await ada.json('POST', `/automations/${automation.body.id}/dry-run`, {});
    expect(dry.status).to.equal(201);
    const spent = await tokensUsed(ada);
    expect(spent, 'the dry run asked the model').to.be.greaterThan(0);
    expect((await refusal(await ada.json('POST', `/automations/${automation.body.id}/dry-run`, {}))).details).to.deep.include({
      budget: 'runs',
    });
    expect((await refusal(await ada.json('POST', `/runs/${dry.body.id}/rerun`))).details).to.deep.include({ budget: 'runs' });
    expect((await ada.json('GET', '/runs')).body.runs, 'nothing was kept').to.have.length(1);

    const fork = await ada.json('POST', '/apps/seed', { slot: 'pricing', instruction: 'add a note about VAT' });
    expect(fork.status).to.equal(201);
    await components.change('Pricing 2026');
    await sync(components.manifestFile);
    expect((await ada.json('POST', `/apps/${fork.body.id}/rebase`, { slot: 'pricing' })).status).to.equal(200);
    const afterApps = await tokensUsed(ada);
    expect(afterApps, "the generations' tokens were counted").to.be.greaterThan(spent);

    const seedRefused = await refusal(await ada.json('POST', '/apps/seed', { slot: 'pricing', instruction: 'another note' }));
    expect(seedRefused.details).to.deep.include({ budget: 'appGenerations' });
    expect(seedRefused.retryAfter).to.be.within(3500, 3660);
    await components.change('Pricing 2027');
    await sync(components.manifestFile);
    expect((await refusal(await ada.json('POST', `/apps/${fork.body.id}/rebase`, { slot: 'pricing' }))).details).to.deep.include({
      budget: 'appGenerations',
    });
    expect(await tokensUsed(ada), 'no model was asked after the budgets were spent').to.equal(afterApps);
    expect((await ada.json('GET', '/apps')).body.apps).to.have.length(1);
  });

  it("ten parallel turns of one person: four run, six are 429 with Retry-After; the tokens spent are four turns' worth", async () => {
    host = await devHost({
      env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET, PORTER_LIMITS: '{"tokens":{"max":1000000,"windowSeconds":3600}}' },
    });
    const ada = host.client.as('ada');
    await readTurn(await ada.send('POST', `/threads/${await ada.newThread()}/turn`, turnBody('/slow 0.1 one two three')));
    const oneTurn = await tokensUsed(ada);
    const threads = await Promise.all(Array.from({ length: 10 }, () => ada.newThread()));
    const answers = await Promise.all(
      threads.map((thread) => ada.send('POST', `/threads/${thread}/turn`, turnBody('/slow 2 one two three'))),
    );
    const ran = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(ran).to.have.length(4);
    expect(refused).to.have.length(6);
    for (const answer of refused) {
      const { details, retryAfter } = await refusal(answer);
      expect(details).to.deep.include({ budget: 'turnsInFlight' });
      expect(retryAfter).to.be.within(1, 15);
    }
    for (const answer of ran) expect((await readTurn(answer)).chunks.at(-1)).to.deep.include({ type: 'finish' });
    expect(await tokensUsed(ada)).to.be.at.most(oneTurn * 5);
    // Places free as turns end.
    expect((await ada.say(threads[0]!, 'again')).status).to.equal(200);
  });
});

describe('The client address behind a proxy', function () {
  this.timeout(30_000);

  it('with trustProxy, a client writing its own X-Forwarded-For entries gets no fresh budget: the address the proxy added counts', async () => {
    const porter = await createPorter(
      {
        development: true,
        databaseUrl: 'memory:',
        secret: 'a-usage-limits-secret-for-the-tests-0123456789',
        logger: 'silent',
        scheduler: 'external',
        trustProxy: true,
        limits: { turns: { max: 2, windowSeconds: 600 } },
      },
      {},
    );
    const server = await serve(porter.listener);
    try {
      const base = `${server.url}${porter.mount}`;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        // What the proxy in front sends on: the client's own entry first, then the address it saw.
        const visitor = new Visitor(base, { 'x-forwarded-for': `10.9.8.${i}, 198.51.100.7` });
        const answer = await visitor.send('POST', `/threads/${await visitor.newThread()}/turn`, turnBody('hello'));
        statuses.push(answer.status);
        await answer.text();
      }
      expect(statuses).to.deep.equal([200, 200, 429, 429]);
      const elsewhere = new Visitor(base, { 'x-forwarded-for': '198.51.100.8' });
      expect((await elsewhere.send('POST', `/threads/${await elsewhere.newThread()}/turn`, turnBody('hello'))).status).to.equal(200);
    } finally {
      await server.close();
      await porter.close();
    }
  });
});
