import { expect } from 'chai';
import { clientNetworkOf } from '../../../adapters/http/client-network.js';

describe('clientNetworkOf: the network anonymous sessions share budgets by', () => {
  it('is an IPv4 address itself, also when mapped into IPv6', () => {
    expect(clientNetworkOf('203.0.113.7')).to.equal('203.0.113.7');
    expect(clientNetworkOf('::ffff:203.0.113.7')).to.equal('203.0.113.7');
    expect(clientNetworkOf('::FFFF:cb00:7107')).to.equal('203.0.113.7');
  });

  it("is an IPv6 address's /64, however it is written: walking the /64 gives no fresh budget", () => {
    const network = '2001:db8:1:2::/64';
    for (const address of ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:1:2:3', '[2001:db8:1:2:aaaa::9]', '2001:db8:1:2::1%eth0'])
      expect(clientNetworkOf(address), address).to.equal(network);
    expect(clientNetworkOf('2001:db8:1:3::1')).to.not.equal(network);
    expect(clientNetworkOf('::1')).to.equal('0:0:0:0::/64');
  });

  it('is undefined for no address or something that is not one', () => {
    for (const value of ['', 'localhost', '1.2.3', 'x'.repeat(100)]) expect(clientNetworkOf(value), value).to.equal(undefined);
  });
});
