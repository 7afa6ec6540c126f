import { expect } from 'chai';
import { DelayedHandOvers } from '../../../adapters/scheduler/delayed-hand-overs.js';

/** A hand-over that records itself, and a promise of it. */
function handOver(log: string[], name: string) {
  let done!: () => void;
  const ran = new Promise<void>((resolve) => (done = resolve));
  return {
    ran,
    run: () => {
      log.push(name);
      done();
    },
  };
}

describe('Delayed hand-overs (a dispatcher handed work for a later instant)', () => {
  const delayed = new DelayedHandOvers();
  afterEach(() => delayed.clear());

  it('leaves a hand-over for now, or for an instant already past, to the caller', () => {
    const log: string[] = [];
    expect(delayed.defer(undefined, handOver(log, 'now').run)).to.equal(false);
    expect(delayed.defer(new Date(Date.now() - 1_000), handOver(log, 'past').run)).to.equal(false);
    expect(log).to.deep.equal([]);
  });

  it('hands over at the instant to come, and never one further off than a timer can wait', async () => {
    const log: string[] = [];
    // Node fires an overflowing timer after 1 ms: before the 20 ms one, were it ever set.
    expect(delayed.defer(new Date(Date.now() + 2 ** 31 + 60_000), handOver(log, 'too far').run)).to.equal(true);
    const soon = handOver(log, 'soon');
    expect(delayed.defer(new Date(Date.now() + 20), soon.run)).to.equal(true);
    expect(log).to.deep.equal([]);
    await soon.ran;
    expect(log).to.deep.equal(['soon']);
  });

  it('drops every hand-over still waiting when cleared', async () => {
    const log: string[] = [];
    delayed.defer(new Date(Date.now() + 1), handOver(log, 'dropped').run);
    delayed.clear();
    const later = handOver(log, 'later');
    delayed.defer(new Date(Date.now() + 20), later.run);
    await later.ran;
    expect(log).to.deep.equal(['later']);
  });
});
