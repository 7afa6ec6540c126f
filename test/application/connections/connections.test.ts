import { expect } from 'chai';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ConnectionsNotConfigured } from '../../../domain/connections/errors.js';
import { AtomicityUnavailable, NotFound } from '../../../domain/errors.js';
import { ScriptedBroker } from '../../support/scripted-broker.js';
import { ada, bob, connectionsHarness, expectPollLosesToDelete, expectRemovedOnce } from './connections-harness.js';
import { rejection } from '../../support/outcomes.js';

describe('Connections use cases', () => {
  it("initiate: the broker gets the owner, toolkit and callback; the caller gets the id and the broker's page", async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker);
    const started = await h.start();
    expect(started.id).to.match(/^con_/);
    expect(started.redirectUrl).to.equal(
      `https://broker.example/consent/${started.id}?back=${encodeURIComponent('https://host.example/settings')}`,
    );
    expect(broker.calls[0]).to.deep.equal({ op: 'initiate', account: { connectionId: started.id, owner: 'ada', toolkit: 'github' } });
    expect(await h.get.execute({ principal: ada, connectionId: started.id })).to.deep.equal({
      id: started.id,
      toolkit: 'github',
      status: 'initiated',
    });
  });

  it('poll: reports the outcome of the flow the broker owns, and audits the move once', async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker);
    const { id } = await h.start();
    broker.consent(id);
    expect((await h.get.execute({ principal: ada, connectionId: id })).status).to.equal('active');
    expect((await h.get.execute({ principal: ada, connectionId: id })).status).to.equal('active');
    const events = (await h.auditLog.list('ada', {})).events.map((e) => e.action);
    expect(events.filter((a) => a === 'connection.active')).to.have.length(1);
    expect(events).to.include('connection.initiated');
  });

  it('poll: a consent nobody finished expires at the deadline, even if the broker still says initiated', async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker);
    const { id } = await h.start();
    h.clock.advance(59 * 60_000);
    expect((await h.get.execute({ principal: ada, connectionId: id })).status).to.equal('initiated');
    h.clock.advance(2 * 60_000);
    expect((await h.get.execute({ principal: ada, connectionId: id })).status).to.equal('expired');
    broker.consent(id);
    expect((await h.get.execute({ principal: ada, connectionId: id })).status).to.equal('expired');
  });

  it('poll: a broker that cannot be reached leaves the stored state, and says so in the log', async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker);
    const { id } = await h.start();
    broker.down = true;
    expect((await h.get.execute({ principal: ada, connectionId: id })).status).to.equal('initiated');
    expect(h.logger.text()).to.contain('could not ask the connection broker');
  });

  it("is owner-scoped: someone else's id reads as not found, for get and delete alike", async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker);
    const { id } = await h.start();
    expect(await rejection(h.get.execute({ principal: bob, connectionId: id }))).to.be.instanceOf(NotFound);
    expect(await rejection(h.remove.execute({ principal: bob, connectionId: id }))).to.be.instanceOf(NotFound);
    expect(broker.removed).to.deep.equal([]);
    expect((await h.list.execute({ principal: bob })).connections).to.deep.equal([]);
    expect((await h.list.execute({ principal: ada })).connections.map((c) => c.id)).to.deep.equal([id]);
  });

  it('list: newest first, and open flows are brought up to date', async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker);
    const first = await h.start(ada, 'github');
    h.clock.advance(1000);
    const second = await h.start(ada, 'slack');
    broker.consent(first.id);
    broker.consent(second.id, 'failed');
    const listed = await h.list.execute({ principal: ada });
    expect(listed.connections).to.deep.equal([
      { id: second.id, toolkit: 'slack', status: 'failed' },
      { id: first.id, toolkit: 'github', status: 'active' },
    ]);
  });

  it('delete: removes the account at the broker with its ref, then the connection is gone', async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker);
    const { id } = await h.start();
    broker.consent(id);
    await h.get.execute({ principal: ada, connectionId: id });
    await h.remove.execute({ principal: ada, connectionId: id });
    expect(broker.calls.find((c) => c.op === 'remove')!.account).to.deep.include({ connectionId: id, ref: `ref-${id}` });
    expect(await rejection(h.get.execute({ principal: ada, connectionId: id }))).to.be.instanceOf(NotFound);
    expect(await rejection(h.remove.execute({ principal: ada, connectionId: id }))).to.be.instanceOf(NotFound);
  });

  it('delete: of racing deletes one consumes the record; one removal is audited and both callers are answered', async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker);
    const { id } = await h.start();
    await Promise.all([h.remove.execute({ principal: ada, connectionId: id }), h.remove.execute({ principal: ada, connectionId: id })]);
    await expectRemovedOnce(h, id);
  });

  it('a poll that races a delete never brings the connection back', async () => {
    const broker = new ScriptedBroker();
    await expectPollLosesToDelete(connectionsHarness(broker), broker);
  });

  it('fails closed on a store without atomic operations: no status change, no removal', async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker, { store: (clock) => new MemoryStore({ clock, atomic: false }) });
    const { id } = await h.start();
    broker.consent(id);
    expect(await rejection(h.get.execute({ principal: ada, connectionId: id }))).to.be.instanceOf(AtomicityUnavailable);
    expect(await rejection(h.remove.execute({ principal: ada, connectionId: id }))).to.be.instanceOf(AtomicityUnavailable);
    expect(await h.book.find(id)).to.not.equal(null);
  });

  it('without a broker every use case answers not-implemented', async () => {
    const h = connectionsHarness(null);
    for (const call of [
      h.start(),
      h.get.execute({ principal: ada, connectionId: 'con_0000000001' }),
      h.list.execute({ principal: ada }),
      h.remove.execute({ principal: ada, connectionId: 'con_0000000001' }),
    ]) {
      const error = await rejection(call);
      expect(error).to.be.instanceOf(ConnectionsNotConfigured);
      expect((error as ConnectionsNotConfigured).code).to.equal('not-implemented');
    }
  });

  it('a broker that fails to start a flow records nothing', async () => {
    const broker = new ScriptedBroker();
    const h = connectionsHarness(broker);
    broker.down = true;
    await rejection(h.start());
    broker.down = false;
    expect((await h.list.execute({ principal: ada })).connections).to.deep.equal([]);
  });
});
