import { expect } from 'chai';
import { InvalidInput } from '../../domain/errors.js';
import { assertJsonDepth, JSON_DEPTH_LIMIT, jsonDepth } from '../../domain/json-depth.js';

const nested = (depth: number, inner = '1') => `${'{"a":['.repeat(depth / 2)}${inner}${']}'.repeat(depth / 2)}`;

describe('JSON depth', () => {
  it('counts objects and arrays, not brackets inside strings or after escaped quotes', () => {
    expect(jsonDepth('{}')).to.equal(1);
    expect(jsonDepth('[[1],[[2]]]')).to.equal(3);
    expect(jsonDepth('{"a":"[[[[{{{{","b":["\\"[[["]}')).to.equal(2);
    expect(jsonDepth('["\\\\",[["x"]]]')).to.equal(3);
    expect(jsonDepth(new TextEncoder().encode('{"é":[{"[":1}]}'))).to.equal(3);
  });

  it(`accepts ${JSON_DEPTH_LIMIT} levels and refuses ${JSON_DEPTH_LIMIT + 2} as InvalidInput, without recursion even at a million`, () => {
    expect(() => assertJsonDepth(nested(JSON_DEPTH_LIMIT))).not.to.throw();
    expect(() => assertJsonDepth(nested(JSON_DEPTH_LIMIT + 2))).to.throw(InvalidInput, /deeper than 64 levels/);
    expect(() => assertJsonDepth('['.repeat(1_000_000))).to.throw(InvalidInput);
    expect(jsonDepth('['.repeat(1_000_000))).to.equal(1_000_000);
  });
});
