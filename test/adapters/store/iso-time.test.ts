import { expect } from 'chai';
import { isoFromMillis } from '../../../adapters/store/mikro-orm/iso-time.js';

describe('isoFromMillis', () => {
  it('writes exactly what Date#toISOString writes, across days, years and the cached day', () => {
    const instants = [0, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 1_772_359_200_000, 253_402_300_799_999];
    let state = 12345;
    for (let i = 0; i < 20_000; i++) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      instants.push(Math.floor((state / 2_147_483_648) * 253_402_300_799_999));
      instants.push(1_772_359_200_000 + (state % 172_800_000));
    }
    for (const ms of instants) expect(isoFromMillis(ms), String(ms)).to.equal(new Date(ms).toISOString());
  });

  it('falls back to Date for instants outside four-digit years', () => {
    for (const ms of [-1, -86_400_001, 253_402_300_800_000]) expect(isoFromMillis(ms)).to.equal(new Date(ms).toISOString());
  });
});
