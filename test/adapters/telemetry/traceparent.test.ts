import { expect } from 'chai';
import { parseTraceparent, traceparentOf } from '../../../adapters/telemetry/traceparent.js';

describe('traceparent (W3C Trace Context), read from requests and stored with approvals', () => {
  it('reads a valid header as a remote, sampled span context and writes it back the same', () => {
    const header = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const read = parseTraceparent(header);
    expect(read).to.deep.equal({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1, isRemote: true });
    expect(traceparentOf(read!)).to.equal(header);
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00')!.traceFlags).to.equal(0);
  });

  it('accepts a later version with more fields, and refuses anything malformed', () => {
    expect(parseTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra')).to.not.equal(null);
    for (const bad of [
      undefined,
      '',
      'garbage',
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra',
      '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01',
      `00-${'a'.repeat(10_000)}`,
    ])
      expect(parseTraceparent(bad), String(bad).slice(0, 40)).to.equal(null);
  });
});
