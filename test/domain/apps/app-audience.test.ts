import { expect } from 'chai';
import { admittedScope } from '../../../domain/apps/app-audience.js';

describe('admittedScope: who may read an app made from a supplied document', () => {
  it('is shared only when the document asks and a signed-in person the host lets share stores it', () => {
    expect(admittedScope('shared', { anonymous: false, mayShare: true })).to.equal('shared');
    expect(admittedScope('shared', { anonymous: false, mayShare: false })).to.equal('owner');
    expect(admittedScope('shared', { anonymous: true, mayShare: true }), 'anonymous never shares').to.equal('owner');
    expect(admittedScope('owner', { anonymous: false, mayShare: true }), 'permission does not widen an owner app').to.equal('owner');
  });
});
