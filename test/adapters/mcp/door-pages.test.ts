import { expect } from 'chai';
import { defaultConsentPage, type ConsentPageModel } from '../../../adapters/mcp/consent-page.js';
import { connectPage } from '../../../adapters/mcp/connect-page.js';
import { personPagesOf, toCallResult } from '../../../adapters/mcp/mcp-door-server.js';
import { ConnectionRequired } from '../../../domain/connections/errors.js';
import { bearerOf } from '../../../adapters/mcp/mcp-door-transport.js';

const model: ConsentPageModel = {
  handle: 'h"andle',
  action: 'https://app.example/api/porter/mcp/authorize',
  brand: { name: 'Acme <Notes>', accentColor: 'red;}body{display:none', logoUrl: 'javascript:alert(1)' },
  client: { id: 'mcpc_1', name: '<script>alert("x")</script>', clientUri: null, redirectOrigin: 'https://client.example' },
  person: { subject: 'ada', name: 'Ada & co' },
  scope: 'mcp',
  tools: [{ name: 'notes_clear', description: 'Delete <all>', risk: 'destructive', egress: false }],
};

describe('door pages', () => {
  it('escapes everything a client or the host supplied on the consent page', () => {
    const html = defaultConsentPage(model);
    expect(html).to.not.contain('<script>');
    expect(html).to.contain('&lt;script&gt;');
    expect(html).to.contain('Acme &lt;Notes&gt;');
    expect(html).to.contain('value="h&quot;andle"');
    expect(html).to.not.contain('display:none');
    expect(html).to.not.contain('javascript:');
    expect(html).to.contain('deletes · asks you first');
  });

  it('tells a person how to add the door to Claude, ChatGPT and Cursor', () => {
    const html = connectPage({
      brand: { name: 'Acme' },
      serverUrl: 'https://app.example/api/porter/mcp',
      issuer: 'https://app.example/api/porter/mcp',
      external: false,
    });
    expect(html).to.contain('claude mcp add --transport http acme https://app.example/api/porter/mcp');
    expect(html).to.contain('&quot;url&quot;: &quot;https://app.example/api/porter/mcp&quot;');
    expect(html).to.contain('<h2>ChatGPT</h2>');
  });

  it('reads only well-formed bearer tokens', () => {
    expect(bearerOf('Bearer abc.def-ghi_~+/=')).to.equal('abc.def-ghi_~+/=');
    expect(bearerOf('bearer abc')).to.equal('abc');
    expect(bearerOf('Basic abc')).to.equal(null);
    expect(bearerOf('Bearer a b')).to.equal(null);
    expect(bearerOf('')).to.equal(null);
  });

  it('answers a parked call with an error result naming the approval and what to do', () => {
    const result = toCallResult({
      kind: 'parked',
      approvalId: 'apr_1',
      toolCallId: 'call_1',
      risk: 'destructive',
      preview: 'Delete all of your notes',
    });
    expect(result.isError).to.equal(true);
    expect((result.content[0] as { text: string }).text)
      .to.contain('apr_1')
      .and.to.contain('same arguments');
    expect(result.structuredContent).to.deep.include({ status: 'approval-required', approvalId: 'apr_1' });
    expect(toCallResult({ kind: 'failed', error: 'no consent', code: 'not-implemented' }).content[0]).to.deep.equal({
      type: 'text',
      text: 'not-implemented: no consent',
    });
  });

  it('sends the person to connect an account, where the chrome is, when a call needs one', () => {
    const pages = personPagesOf('/assistant', 'https://app.example.com');
    expect(pages).to.deep.equal({
      approvals: 'https://app.example.com/assistant#/approvals',
      connections: 'https://app.example.com/assistant#/connections',
      runs: 'https://app.example.com/assistant#/runs',
    });
    const needed = new ConnectionRequired('gmail', 'mail_send');
    const result = toCallResult({ kind: 'failed', error: needed.message, code: needed.code, reason: 'connection-required' }, pages);
    expect(result.isError).to.equal(true);
    expect((result.content[0] as { text: string }).text).to.equal(
      "Connection required: mail_send acts through the person's gmail account, which is not connected. " +
        'Ask them to connect gmail at https://app.example.com/assistant#/connections, then call this tool again with the same arguments.',
    );
    expect(result.structuredContent).to.deep.equal({ status: 'connection-required', connectUrl: pages.connections });
  });
});
