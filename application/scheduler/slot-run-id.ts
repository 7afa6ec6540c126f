import { createHash } from 'node:crypto';
import { ID_PREFIXES } from '../../domain/ids.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The id of the run a schedule slot starts: a ULID whose time is the scheduled instant and whose
 * other 80 bits come from a digest of (automation, instant). Every instance and every tick derives
 * the same id for the same slot, so inserting the run if absent IS the slot's claim — one atomic
 * write per due slot, and exactly one winner however many ticks race.
 */
export function slotRunId(automationId: string, slot: Date): string {
  return derivedRunId(`${automationId}\u0000${slot.toISOString()}`, slot);
}

/**
 * The id of the run a webhook delivery starts for one automation, derived the same way from the
 * delivery and the instant it was first received: an attempt that resumes a delivery cut short
 * derives the same ids, so no run starts twice.
 */
export function deliveryRunId(automationId: string, source: string, deliveryId: string, receivedAt: Date): string {
  return derivedRunId(`${automationId}\u0000webhook\u0000${source}\u0000${deliveryId}`, receivedAt);
}

function derivedRunId(key: string, at: Date): string {
  const digest = createHash('sha256').update(key).digest();
  return `${ID_PREFIXES.run}${encodeTime(at.getTime())}${encodeBits(digest, 80)}`;
}

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[rest % 32]! + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** The first `bits` bits of `bytes` in Crockford base32, five bits a character. */
function encodeBits(bytes: Uint8Array, bits: number): string {
  let out = '';
  for (let bit = 0; bit < bits; bit += 5) {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const at = bit + i;
      value = (value << 1) | ((bytes[at >> 3]! >> (7 - (at & 7))) & 1);
    }
    out += CROCKFORD[value];
  }
  return out;
}
