import { expect } from 'chai';
import { DoorSessions } from '../../../application/door/door-sessions.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import type { DoorSessionPrimitives, LiveDoorSession } from '../../../ports/door-sessions.js';
import { ManualClock } from '../../support/manual-clock.js';

const INITIALIZE = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } };

function harness(settings = { maxSessionsPerSubject: 3, sessionIdleSeconds: 1800 }) {
  const clock = new ManualClock();
  const store = new MemoryStore({ clock });
  const records = store.records<DoorSessionPrimitives>('door-sessions');
  const closed: string[] = [];
  const live = (id: string): LiveDoorSession => ({ id, streaming: false, close: async () => void closed.push(id) });
  // Two instances on one store: each keeps its own live forms.
  const here = new DoorSessions({ records, settings, clock });
  const there = new DoorSessions({ records, settings, clock });
  const open = (sessions: DoorSessions, id: string, subject = 'ada') =>
    sessions.open({ id, subject, clientId: 'mcpc_1', initialize: INITIALIZE }, live(id));
  return { clock, records, closed, here, there, open };
}

describe('Door sessions in the store', () => {
  it('are found by any instance on the store, bound to their subject and client', async () => {
    const { here, there, open } = harness();
    await open(here, 'ses_1');
    const found = await there.find('ses_1', 'ada', 'mcpc_1');
    expect(found).to.deep.include({ id: 'ses_1', live: null });
    expect(found!.session.initialize).to.deep.equal(INITIALIZE);
    expect((await here.find('ses_1', 'ada', 'mcpc_1'))!.live).to.not.equal(null);
    expect(await there.find('ses_1', 'bob', 'mcpc_1'), "another person's token").to.equal(null);
    expect(await there.find('ses_1', 'ada', 'mcpc_2'), 'another client').to.equal(null);
    expect(await there.find('ses_1', 'ada', 'mcpc_1'), 'a refused stranger ends nothing').to.not.equal(null);
  });

  it('keeps a session in use alive past the idle bound, and ends one left idle past it', async () => {
    const { clock, here, there, open, closed } = harness();
    await open(here, 'ses_used');
    await open(here, 'ses_left');
    for (let minute = 0; minute < 90; minute += 10) {
      clock.advance(10 * 60_000);
      expect(await there.find('ses_used', 'ada', 'mcpc_1'), `in use at minute ${minute + 10}`).to.not.equal(null);
    }
    expect(await here.find('ses_left', 'ada', 'mcpc_1')).to.equal(null);
    expect(closed).to.deep.equal(['ses_left']);
  });

  it("ends the subject's least recently used session to make room, never the new one nor a busy one", async () => {
    const { clock, here, there, open, records } = harness({ maxSessionsPerSubject: 3, sessionIdleSeconds: 1800 });
    await open(here, 'ses_busy');
    clock.advance(120_000);
    await open(here, 'ses_quiet');
    clock.advance(120_000);
    await open(there, 'ses_other');
    clock.advance(120_000);
    // The busy one is used again: the quiet one is now the least recently used.
    expect(await there.find('ses_busy', 'ada', 'mcpc_1')).to.not.equal(null);
    await open(there, 'ses_new');
    await open(there, 'ses_bob', 'bob');
    expect(await here.find('ses_quiet', 'ada', 'mcpc_1')).to.equal(null);
    for (const id of ['ses_busy', 'ses_other', 'ses_new']) expect(await here.find(id, 'ada', 'mcpc_1'), id).to.not.equal(null);
    expect(await here.find('ses_bob', 'bob', 'mcpc_1')).to.not.equal(null);
    expect((await records.list()).items.length).to.equal(4);
  });

  it('ends a session everywhere: its record goes, and the other instance closes its live form when next asked', async () => {
    const { here, there, open, closed } = harness();
    await open(here, 'ses_1');
    await there.end('ses_1');
    expect(await here.find('ses_1', 'ada', 'mcpc_1')).to.equal(null);
    expect(closed).to.deep.equal(['ses_1']);
  });

  it('revokes every session of a subject on the store, and closes the live ones here', async () => {
    const { here, there, open, closed } = harness();
    await open(here, 'ses_1');
    await open(there, 'ses_2');
    await open(there, 'ses_3', 'bob');
    expect(await here.revokeSubject('ada')).to.equal(2);
    expect(closed).to.deep.equal(['ses_1']);
    expect(await there.find('ses_2', 'ada', 'mcpc_1')).to.equal(null);
    expect(await there.find('ses_3', 'bob', 'mcpc_1')).to.not.equal(null);
  });

  it('keeps the stored sessions when Porter closes, for the next process', async () => {
    const { here, open, closed, records } = harness();
    await open(here, 'ses_1');
    await here.closeAll();
    expect(closed).to.deep.equal(['ses_1']);
    expect(await records.get('ses_1')).to.not.equal(null);
  });
});

describe('Door sessions trusted for a while', () => {
  it('reads the store again once cacheMs lapsed, so a session ended elsewhere is refused here within it', async () => {
    const clock = new ManualClock();
    const store = new MemoryStore({ clock });
    const records = store.records<DoorSessionPrimitives>('door-sessions');
    const settings = { maxSessionsPerSubject: 3, sessionIdleSeconds: 1800 };
    const here = new DoorSessions({ records, settings, clock, cacheMs: 1_000 });
    const there = new DoorSessions({ records, settings, clock, cacheMs: 1_000 });
    await here.open(
      { id: 'ses_1', subject: 'ada', clientId: 'mcpc_1', initialize: INITIALIZE },
      { id: 'ses_1', streaming: false, close: async () => {} },
    );
    expect(await here.find('ses_1', 'ada', 'mcpc_1')).to.not.equal(null);
    await there.end('ses_1');
    expect(await here.find('ses_1', 'bob', 'mcpc_1'), 'the binding holds from the cache too').to.equal(null);
    expect(await here.find('ses_1', 'ada', 'mcpc_1'), 'trusted within cacheMs').to.not.equal(null);
    clock.advance(1_001);
    expect(await here.find('ses_1', 'ada', 'mcpc_1')).to.equal(null);
  });
});

describe('Door sessions just opened or rebuilt', () => {
  it('are trusted as read: the requests that follow within cacheMs read nothing', async () => {
    const clock = new ManualClock();
    const stored = new MemoryStore({ clock }).records<DoorSessionPrimitives>('door-sessions');
    let reads = 0;
    const records = Object.assign(Object.create(stored) as typeof stored, {
      get: (id: string) => {
        reads++;
        return stored.get(id);
      },
    });
    const settings = { maxSessionsPerSubject: 3, sessionIdleSeconds: 1800 };
    const here = new DoorSessions({ records, settings, clock, cacheMs: 1_000 });
    const there = new DoorSessions({ records, settings, clock, cacheMs: 1_000 });
    const live = { id: 'ses_1', streaming: false, close: async () => {} };
    await here.open({ id: 'ses_1', subject: 'ada', clientId: 'mcpc_1', initialize: INITIALIZE }, live);
    expect(await here.find('ses_1', 'ada', 'mcpc_1')).to.not.equal(null);
    expect(reads, 'opened here').to.equal(0);

    // Another instance reads it once, rebuilds its live form from what it read, and keeps it.
    const found = await there.find('ses_1', 'ada', 'mcpc_1');
    expect(found?.live).to.equal(null);
    there.keep({ ...live }, found!.session);
    expect((await there.find('ses_1', 'ada', 'mcpc_1'))?.live, 'rebuilt there').to.not.equal(null);
    expect(reads, 'one read, by the rebuild').to.equal(1);
    clock.advance(1_001);
    await there.find('ses_1', 'ada', 'mcpc_1');
    expect(reads, 'read again once cacheMs lapsed').to.equal(2);
  });
});

describe("A process's live forms of door sessions", () => {
  it('close when unused for a while, never while answering a call or streaming, and their sessions stay stored', async () => {
    const clock = new ManualClock();
    const store = new MemoryStore({ clock });
    const records = store.records<DoorSessionPrimitives>('door-sessions');
    const sessions = new DoorSessions({ records, settings: { maxSessionsPerSubject: 16, sessionIdleSeconds: 3600 }, clock });
    const closed: string[] = [];
    const open = (id: string, state: { busy?: boolean; streaming?: boolean }) =>
      sessions.open(
        { id, subject: 'ada', clientId: 'mcpc_1', initialize: INITIALIZE },
        { id, streaming: state.streaming ?? false, busy: state.busy ?? false, close: async () => void closed.push(id) },
      );
    await open('ses_idle', {});
    await open('ses_calling', { busy: true });
    await open('ses_streaming', { streaming: true });
    clock.advance(6 * 60_000);
    await sessions.recheck();
    expect(closed).to.deep.equal(['ses_idle']);
    expect(await records.get('ses_idle'), 'still stored, rebuilt where next used').to.not.equal(null);
  });
});
