import { expect } from 'chai';
import { defined, type Defined } from '../../domain/defined.js';

// Type-level: a field that may be undefined becomes optional (and loses `undefined`); others stay.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const typed: Same<Defined<{ a: string; b: number | undefined; c?: boolean }>, { a: string; b?: number; c?: boolean }> = true;

describe('defined', () => {
  it('leaves out the fields that are undefined, and keeps null, empty strings, zero and false', () => {
    const title: string | undefined = undefined;
    const fields = defined({ id: 'thr_1', title, until: null, note: '', count: 0, done: false });
    expect(fields).to.deep.equal({ id: 'thr_1', until: null, note: '', count: 0, done: false });
    expect(Object.keys(fields)).to.deep.equal(['id', 'until', 'note', 'count', 'done']);
    expect('title' in fields).to.equal(false);
    expect(typed).to.equal(true);
  });

  it('returns a new object, and keeps a __proto__ key a field rather than a prototype', () => {
    const fields = { a: 1 };
    expect(defined(fields)).not.to.equal(fields);
    const odd = defined(JSON.parse('{"__proto__":{"polluted":true}}') as object);
    expect(Object.getPrototypeOf(odd)).to.equal(Object.prototype);
    expect(Object.keys(odd)).to.deep.equal(['__proto__']);
  });
});
