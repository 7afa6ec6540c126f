import { expect } from 'chai';
import { sharedDevHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { textOf, toolPart, type Part, type WireClient } from '../support/turn-client.js';

describe('web_fetch through the development host cannot reach the host (the egress guard)', function () {
  this.timeout(30_000);
  let host: DevHostFixture;
  let ada: WireClient;
  let port: string;
  sharedDevHost((started) => {
    ({ host, ada } = started);
    port = new URL(host.url).port;
  });

  /** Parks a web_fetch of `url`, approves it from its card, and reads what the call came to. */
  async function fetchApproved(url: string) {
    const thread = await ada.newThread();
    const parked = await ada.say(thread, `/call web_fetch ${JSON.stringify({ url })}`);
    const part = toolPart(parked.message, 'web_fetch')!;
    expect(part.state, `${url}: ${JSON.stringify(part)}`).to.equal('approval-requested');
    const card = parked.message.parts.find((p) => p.type === 'data-porter-approval') as Part;
    const approvalId = card.data.approvalId as string;
    const stored = await ada.json('GET', `/approvals/${approvalId}`);
    expect(stored.body.request.preview, 'GET /approvals/:id shows what the card shows').to.equal(card.data.preview);
    expect((await ada.json('POST', `/approvals/${approvalId}/decide`, { approve: true })).status).to.equal(200);
    const resumed = await ada.continueTurn(thread, parked.message);
    return { preview: card.data.preview as string, part: toolPart(resumed.message, 'web_fetch')!, text: textOf(resumed.message) };
  }

  it('the card shows where http://2130706433:PORT/api/porter/status goes, and the approved call is refused with a readable tool error', async () => {
    const url = `http://2130706433:${port}/api/porter/status`;
    const { preview, part, text } = await fetchApproved(url);
    expect(preview).to.equal(`Fetch ${url} → 127.0.0.1 (loopback: will be refused)`);
    expect(part.state).to.equal('output-error');
    expect(part.errorText).to.equal('Porter will not connect to 127.0.0.1: it is a loopback address');
    expect(text).to.contain('loopback');
  });

  it('refuses the other spellings of this machine the issue tried', async () => {
    for (const spelling of ['127.1', '0x7f000001', '[::ffff:127.0.0.1]', 'localhost', '0.0.0.0']) {
      const { preview, part } = await fetchApproved(`http://${spelling}:${port}/api/porter/status`);
      expect(preview, spelling).to.match(/ \((loopback|unspecified): will be refused\)$/);
      expect(part.state, spelling).to.equal('output-error');
      expect(part.errorText, spelling).to.match(
        /^Porter will not connect to \S+: it (is|resolves to) (a loopback|the unspecified) address$/,
      );
    }
  });
});
