import { expect } from 'chai';
import { ConnectionRequired, ConnectionsNotConfigured } from '../../../domain/connections/errors.js';
import type { StreamedData } from '../../../ports/tool-registry.js';
import { StaticToolRegistry } from '../../../adapters/tools/static-tool-registry.js';
import { ToolRunner } from '../../../application/guard/tool-runner.js';
import { ScriptedBroker } from '../../support/scripted-broker.js';
import { guardHarness } from '../../support/guard-harness.js';
import { githubRepos } from '../../support/github-tools.js';
import { ada, bob, connectionsHarness } from './connections-harness.js';

describe('Tools that act through a connection', () => {
  function setup() {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker);
    const guard = guardHarness({ tools: [] });
    const runner = new ToolRunner(guard.hostAccess, h.gate, guard.egress);
    const tool = new StaticToolRegistry([githubRepos]).get('github_repos')!;
    const parts: StreamedData[] = [];
    const run = (principal = ada) =>
      runner.run({
        tool,
        input: {},
        toolCallId: 'call_1',
        principal,
        venue: 'chat',
        presence: 'present',
        session: 'thr_1',
        authority: null,
        signal: new AbortController().signal,
        writeData: (part) => parts.push(part),
      });
    return { broker, h, runner, parts, run };
  }

  it('without a connection: the call fails with connection-required and the chat gets a connect part', async () => {
    const { run, parts } = setup();
    const outcome = await run();
    expect(outcome).to.deep.include({ ok: false, code: 'conflict' });
    expect((outcome as { error: string }).error)
      .to.contain('Connection required')
      .and.contain('github');
    expect(parts).to.deep.equal([
      { type: 'data-porter-connect', id: 'porter-connect:call_1', data: { toolkit: 'github', tool: 'github_repos', toolCallId: 'call_1' } },
    ]);
  });

  it('with an active connection: the tool calls the provider through the broker as that account', async () => {
    const { run, h, broker, parts } = setup();
    const { id } = await h.start(ada, 'github');
    broker.consent(id);
    await h.get.execute({ principal: ada, connectionId: id });
    const outcome = await run();
    expect(outcome).to.deep.equal({
      ok: true,
      output: { status: 200, body: { as: `ref-${id}`, method: 'GET', path: '/user/repos', query: { per_page: '5' } } },
    });
    expect(parts).to.deep.equal([]);
  });

  it("uses only the caller's own account: ada's connection does nothing for bob", async () => {
    const { run, h, broker } = setup();
    const { id } = await h.start(ada, 'github');
    broker.consent(id);
    await h.get.execute({ principal: ada, connectionId: id });
    expect((await run(bob)).ok).to.equal(false);
  });

  it('an initiated, failed or removed connection is not an account to act through', async () => {
    const { run, h, broker } = setup();
    const { id } = await h.start(ada, 'github');
    expect((await run()).ok).to.equal(false);
    broker.consent(id);
    await h.get.execute({ principal: ada, connectionId: id });
    await h.remove.execute({ principal: ada, connectionId: id });
    expect((await run()).ok).to.equal(false);
  });

  it("refuses a request for an absolute URL: the broker's credentials only go to the provider", async () => {
    const { h, broker } = setup();
    const { id } = await h.start(ada, 'github');
    broker.consent(id);
    await h.get.execute({ principal: ada, connectionId: id });
    const account = await h.gate.open({ principal: ada, toolkit: 'github', tool: 't', toolCallId: 'c' });
    for (const path of ['https://evil.example/steal', '//evil.example/x', 'user']) {
      try {
        await account.request({ method: 'GET', path });
        expect.fail(`${path} was allowed`);
      } catch (error) {
        expect((error as Error).message).to.contain('path on the provider');
      }
    }
    expect(broker.calls.filter((c) => c.op === 'request')).to.have.length(0);
  });

  it('names the missing seam when the deployment has no broker', async () => {
    const error = await connectionsHarness(null)
      .gate.open({ principal: ada, toolkit: 'github', tool: 't', toolCallId: 'c' })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ConnectionsNotConfigured);
    const guard = guardHarness({ tools: [] });
    const runner = new ToolRunner(guard.hostAccess, connectionsHarness(null).gate, guard.egress);
    const tool = new StaticToolRegistry([githubRepos]).get('github_repos')!;
    const outcome = await runner.run({
      tool,
      input: {},
      toolCallId: 'c',
      principal: ada,
      venue: 'chat',
      presence: 'present',
      session: 's',
      authority: null,
      signal: new AbortController().signal,
    });
    expect(outcome).to.deep.include({ ok: false, code: 'not-implemented' });
  });

  it('ConnectionRequired carries the structured reason for any venue', () => {
    const error = new ConnectionRequired('github', 'github_repos');
    expect(error.details).to.deep.equal({ reason: 'connection-required', toolkit: 'github', tool: 'github_repos' });
  });
});
