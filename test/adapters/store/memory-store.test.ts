import { expect } from 'chai';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { describeStoreConformance } from './store-conformance.js';

describeStoreConformance('memory', () => ({ open: async (clock) => new MemoryStore({ clock }), shared: false }));

describe('MemoryStore without atomic capabilities', () => {
  it('offers neither claim nor atomic operations, so callers can fail closed', () => {
    const set = new MemoryStore({ clock: new ManualClock(), atomic: false }).records('approvals');
    expect(set.claim).to.equal(undefined);
    expect(set.atomic).to.equal(undefined);
  });
});
