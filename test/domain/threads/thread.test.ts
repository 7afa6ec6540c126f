import { expect } from 'chai';
import { searchableTitle, Thread } from '../../../domain/threads/thread.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 5, 1, 12, 0, seconds)).toISOString();

describe('Thread: the turn lease and the line of turns waiting', () => {
  const fresh = () => Thread.start({ id: 'thr_0000000001', owner: 'ada', now: at(0) });

  it('holds the thread for one turn until its lease lapses; a renewal keeps it, and only its own turn renews', () => {
    const held = fresh().startTurn('trn_a', at(0), 15_000);
    expect(held.canStartTurnAt(at(10))).to.equal(false);
    expect(held.turnInFlight(at(10))?.id).to.equal('trn_a');
    expect(held.abandonedTurn(at(10))).to.equal(null);
    const renewed = held.renewTurn('trn_a', at(10), 15_000)!;
    expect(renewed.canStartTurnAt(at(20))).to.equal(false);
    expect(renewed.canStartTurnAt(at(25))).to.equal(true);
    expect(renewed.abandonedTurn(at(25))?.id).to.equal('trn_a');
    expect(renewed.turnInFlight(at(25))).to.equal(null);
    expect(held.renewTurn('trn_b', at(10), 15_000), "another turn's renewal").to.equal(null);
    const taken = renewed.startTurn('trn_b', at(25), 15_000);
    expect(taken.renewTurn('trn_a', at(26), 15_000), 'a lapsed turn whose thread was taken over').to.equal(null);
  });

  it('records a stop for the turn in flight only, once', () => {
    const held = fresh().startTurn('trn_a', at(0), 15_000);
    const asked = held.requestStop('trn_a');
    expect(asked.stopRequested('trn_a')).to.equal(true);
    expect(asked.requestStop('trn_a')).to.equal(asked);
    expect(held.requestStop('trn_other')).to.equal(held);
    expect(asked.endTurn('trn_a', at(1), 2).stopRequested('trn_a')).to.equal(false);
  });

  it('lets turns waiting in line start first come, first served; a place that lapses is skipped', () => {
    const busy = fresh().startTurn('trn_a', at(0), 15_000);
    const lined = busy.queue('trn_b', at(1), 15_000).queue('trn_c', at(2), 15_000);
    const free = lined.endTurn('trn_a', at(3), 2);
    expect(free.canStartTurnAt(at(3)), 'a newcomer waits behind the line').to.equal(false);
    expect(free.canStartTurnAt(at(3), 'trn_c')).to.equal(false);
    expect(free.canStartTurnAt(at(3), 'trn_b')).to.equal(true);
    const second = free.startTurn('trn_b', at(3), 15_000, 'trn_b');
    expect(second.inLine(at(3)).map((hold) => hold.id)).to.deep.equal(['trn_c']);
    // trn_b's waiter kept renewing; trn_c's died: its place lapses and a newcomer may go.
    const kept = free.keepPlace('trn_b', at(10), 15_000)!;
    expect(kept.canStartTurnAt(at(20), 'trn_b')).to.equal(true);
    expect(kept.canStartTurnAt(at(20), 'trn_c')).to.equal(false);
    expect(kept.leaveLine('trn_b').canStartTurnAt(at(20))).to.equal(true);
    expect(free.keepPlace('trn_z', at(10), 15_000), 'no place to keep').to.equal(null);
  });

  it("frees a dead instance's holds at once, by their holders' marks, before their leases lapse", () => {
    const held = fresh().startTurn('trn_a', at(0), 15_000, undefined, undefined, 'host:1').queue('trn_b', at(1), 15_000, 'host:2');
    expect(held.holdersInTheWay(at(2), 'trn_c')).to.deep.equal(['host:1', 'host:2']);
    expect(held.holdersInTheWay(at(2), 'trn_b'), 'only what stands ahead').to.deep.equal(['host:1']);
    expect(held.renewTurn('trn_a', at(2), 15_000)!.holdersInTheWay(at(3), 'trn_b'), 'a renewal keeps the holder').to.deep.equal(['host:1']);

    const firstDied = held.lapsedWhere((holder) => holder === 'host:1', at(2));
    expect(firstDied.turnInFlight(at(2))).to.equal(null);
    expect(firstDied.abandonedTurn(at(2))?.id).to.equal('trn_a');
    expect(firstDied.canStartTurnAt(at(2), 'trn_b')).to.equal(true);
    expect(firstDied.canStartTurnAt(at(2)), 'the live place in line still comes first').to.equal(false);

    const bothDied = held.lapsedWhere(() => true, at(2));
    expect(bothDied.canStartTurnAt(at(2))).to.equal(true);
    expect(
      held.lapsedWhere(() => false, at(2)),
      'all alive',
    ).to.equal(held);
  });

  it('leaves holds that name no instance to their leases, and a free thread asks about nobody', () => {
    const held = fresh().startTurn('trn_a', at(0), 15_000);
    expect(held.holdersInTheWay(at(2))).to.deep.equal([]);
    expect(held.lapsedWhere(() => true, at(2))).to.equal(held);
    expect(fresh().holdersInTheWay(at(2))).to.deep.equal([]);
  });
});

describe('Thread: the title its first message gives it', () => {
  const fresh = () => Thread.start({ id: 'thr_0000000002', owner: 'ada', now: at(0) });
  const title = (thread: Thread) => thread.toPrimitives().title;

  it('is taken with the first turn and kept once the message is counted; a later message changes nothing', () => {
    const taken = fresh().startTurn('trn_a', at(0), 15_000).titledBy('Plan the **release**');
    expect(title(taken)).to.equal('Plan the release');
    const ended = taken.endTurn('trn_a', at(1), 2);
    expect(title(ended)).to.equal('Plan the release');
    expect(title(ended.titledBy('something else'))).to.equal('Plan the release');
  });

  it('goes again when the first turn ends having stored nothing (refused), and a dead turn’s is replaced by the next first message', () => {
    const refused = fresh().startTurn('trn_a', at(0), 15_000).titledBy('a message never stored').endTurn('trn_a', at(1), 0);
    expect(title(refused)).to.equal('New conversation');
    const left = fresh().startTurn('trn_a', at(0), 15_000).titledBy('the dead turn’s message');
    expect(title(left.startTurn('trn_b', at(20), 15_000).titledBy('the next one'))).to.equal('the next one');
  });

  it('never replaces a title the person gave, even on an empty thread, and search finds a title only once a model or the person gave it', () => {
    const named = fresh().renamed('My plan', at(0));
    expect(title(named.startTurn('trn_a', at(1), 15_000).titledBy('hello').endTurn('trn_a', at(2), 0))).to.equal('My plan');
    expect(searchableTitle(named.toPrimitives())).to.equal('My plan');
    expect(searchableTitle(fresh().titledBy('hello').toPrimitives()), 'the first message is found as itself').to.equal(null);
    expect(searchableTitle(fresh().titledBy('hello').titledGenerated('Greeting')!.toPrimitives())).to.equal('Greeting');
  });
});
