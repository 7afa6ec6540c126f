import { expect } from 'chai';
import { canonicalHost, classifyAddress } from '../../../../adapters/shared/egress/address-class.js';
import { EgressGuard } from '../../../../adapters/shared/egress/egress-guard.js';
import type { AddressClass } from '../../../../domain/guard/egress.js';

/** How a URL's host is classified: normalised as WHATWG URL dials it, then by address. */
function classOfHost(raw: string): AddressClass | 'name' | 'invalid' {
  const canonical = canonicalHost(raw);
  if (!canonical) return 'invalid';
  return canonical.literal ? classifyAddress(canonical.host) : 'name';
}

/** Every way the issue (and then some) spelled this machine in a URL. */
const LOOPBACK_SPELLINGS = [
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0x7F000001',
  '0177.0.0.1',
  '0x7f.0.0.1',
  '127.0.0.1.',
  '127.255.255.254',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::FFFF:7F00:1]',
  '[::127.0.0.1]',
  '[::ffff:0:127.0.0.1]',
  '[64:ff9b::127.0.0.1]',
  '[2002:7f00:1::]',
];

describe("the egress guard's address classes", () => {
  describe('loopback, in every spelling a URL allows', () => {
    for (const spelling of LOOPBACK_SPELLINGS) {
      it(`${spelling} is loopback`, () => expect(classOfHost(spelling)).to.equal('loopback'));
    }

    it('the unspecified address (which reaches this machine too) in its spellings: 0.0.0.0, 0, [::]', () => {
      for (const spelling of ['0.0.0.0', '0', '0x0', '0.0.0.0.', '[::]', '[::ffff:0.0.0.0]'])
        expect(classOfHost(spelling), spelling).to.equal('unspecified');
    });

    const guard = new EgressGuard({ lookup: () => Promise.reject(new Error('localhost must not be looked up')) });
    for (const name of ['localhost', 'localhost.', 'LOCALHOST', 'LocalHost.', 'app.localhost', 'a.b.LOCALHOST.']) {
      it(`${name} is loopback without asking DNS`, async () => {
        const destination = await guard.inspect(name);
        expect(destination.refusal?.addressClass).to.equal('loopback');
        expect(destination.addresses).to.deep.equal([]);
      });
    }
  });

  const table: ReadonlyArray<[AddressClass, ReadonlyArray<string>]> = [
    [
      'private',
      [
        '10.0.0.1',
        '10.255.255.255',
        '172.16.0.1',
        '172.31.255.255',
        '192.168.0.1',
        '192.168.255.255',
        'fc00::1',
        'fd12:3456:789a::1',
        'fd00:ec2::254',
        'fec0::1',
        '::ffff:10.1.2.3',
        '::ffff:192.168.1.1',
        '64:ff9b::10.0.0.1',
        '64:ff9b:1::8.8.8.8',
        '2002:c0a8:101::1',
      ],
    ],
    [
      'link-local',
      ['169.254.169.254', '169.254.0.1', 'fe80::1', 'febf::1', '::ffff:169.254.169.254', '64:ff9b::169.254.169.254', '2002:a9fe:a9fe::'],
    ],
    ['carrier-grade-nat', ['100.64.0.1', '100.127.255.254', '::ffff:100.64.0.1']],
    ['multicast', ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff05::1:3']],
    ['broadcast', ['255.255.255.255']],
    ['unspecified', ['0.0.0.0', '0.1.2.3', '::']],
    ['loopback', ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']],
    [
      'reserved',
      [
        '240.0.0.1',
        '192.0.2.1',
        '198.51.100.7',
        '203.0.113.9',
        '198.18.0.1',
        '192.0.0.8',
        '2001:db8::1',
        '100::1',
        '4000::1',
        '::8.8.8.8',
        '3fff::1',
      ],
    ],
    [
      'public',
      [
        '8.8.8.8',
        '1.1.1.1',
        '93.184.215.14',
        '100.63.255.255',
        '100.128.0.1',
        '172.15.255.255',
        '172.32.0.1',
        '169.253.255.255',
        '192.167.1.1',
        '11.0.0.1',
        '2606:4700:4700::1111',
        '2a00:1450:4001:82b::200e',
        '::ffff:8.8.8.8',
        '64:ff9b::8.8.8.8',
        '2002:808:808::1',
      ],
    ],
  ];
  for (const [expected, addresses] of table) {
    it(`classifies ${expected}: ${addresses.join(', ')}`, () => {
      for (const address of addresses) expect(classifyAddress(address), address).to.equal(expected);
    });
  }

  it('reads both IPv4 addresses inside a Teredo address: a private server or client is refused', () => {
    // 2001:0:<server>:<flags>:<port>:<client, inverted>
    expect(classifyAddress('2001:0:a00:1::'), 'server 10.0.0.1').to.equal('private');
    expect(classifyAddress('2001:0:808:808:8000:63bf:80ff:fffe'), 'client 127.0.0.1').to.equal('loopback');
    expect(classifyAddress('2001:0:808:808:8000:63bf:f7f7:f7f7'), 'server and client 8.8.8.8').to.equal('public');
  });

  it('never dials what is not an address: anything else is reserved', () => {
    for (const junk of ['', 'example.com', '127.1', '1.2.3', '::g']) expect(classifyAddress(junk), junk).to.equal('reserved');
  });

  it('normalises names as a URL does (lower case, punycode, no trailing dot) and refuses what is not a host', () => {
    expect(canonicalHost('Example.COM.')).to.deep.equal({ host: 'example.com', literal: false });
    expect(canonicalHost('bücher.example')).to.deep.equal({ host: 'xn--bcher-kva.example', literal: false });
    for (const bad of ['', 'a@b', 'host:80', 'a/b', 'a b', '1.2.3.256', '[::1', 'x?y']) expect(canonicalHost(bad), bad).to.equal(null);
  });
});
