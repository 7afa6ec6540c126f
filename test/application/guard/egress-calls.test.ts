import { expect } from 'chai';
import type { ToolDefinition } from '../../../ports/tool-registry.js';
import { GuardedEgress } from '../../../adapters/shared/egress/guarded-egress.js';
import type { NameLookup } from '../../../adapters/shared/egress/egress-guard.js';
import { ada, countingTool, guardHarness, parkedId } from '../../support/guard-harness.js';

/** example.com is public; rebind.example is the attacker's name for this machine. */
const lookup: NameLookup = async (name) => {
  const table: Record<string, string[]> = {
    'example.com': ['93.184.215.14'],
    'rebind.example': ['127.0.0.1'],
    'many.example': ['93.184.215.14', '93.184.215.15', '93.184.215.16', '93.184.215.17'],
  };
  const answer = table[name];
  if (!answer) throw new Error(`${name} does not resolve`);
  return answer;
};

/** A host's web fetch tool, written as docs/guard.md says an egress tool must reach out. */
const fetchTool: ToolDefinition = {
  name: 'web_fetch',
  description: 'Fetch a page',
  inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  risk: 'read',
  egress: true,
  preview: (input) => `Fetch ${(input as { url: string }).url}`,
  async execute(input, context) {
    const response = await context.fetch((input as { url: string }).url);
    return { status: response.status };
  },
};

describe('egress calls through the guard', () => {
  const harness = () => guardHarness({ tools: [fetchTool], egress: new GuardedEgress({ lookup }) });

  async function previewOf(h: ReturnType<typeof harness>, url: string): Promise<string> {
    const result = await h.call('web_fetch', { url });
    if (result.status !== 'parked') throw new Error(`expected the call to park, it ${result.status}`);
    const view = await h.get.execute({ principal: ada, approvalId: result.parked.approvalId });
    expect(view.request?.preview, 'the card and the stored approval say the same').to.equal(result.parked.preview);
    return result.parked.preview;
  }

  it('the approval card names the host and the address it resolves to now', async () => {
    const h = harness();
    expect(await previewOf(h, 'http://2130706433:3000/x')).to.equal(
      'Fetch http://2130706433:3000/x → 127.0.0.1 (loopback: will be refused)',
    );
    expect(await previewOf(h, 'https://example.com/')).to.equal('Fetch https://example.com/ → example.com (93.184.215.14)');
    expect(await previewOf(h, 'http://rebind.example/admin')).to.equal(
      'Fetch http://rebind.example/admin → rebind.example (127.0.0.1, loopback: will be refused)',
    );
    expect(await previewOf(h, 'http://localhost./')).to.equal('Fetch http://localhost./ → localhost (loopback: will be refused)');
    expect(await previewOf(h, 'http://[::ffff:169.254.169.254]/')).to.equal(
      'Fetch http://[::ffff:169.254.169.254]/ → ::ffff:a9fe:a9fe (link-local: will be refused)',
    );
    expect(await previewOf(h, 'https://many.example/')).to.equal(
      'Fetch https://many.example/ → many.example (93.184.215.14, 93.184.215.15, 93.184.215.16, …)',
    );
    expect(await previewOf(h, 'https://nowhere.example/')).to.equal('Fetch https://nowhere.example/ → nowhere.example (does not resolve)');
  });

  it('finds the URLs wherever the input carries them, and leaves calls that are not egress alone', async () => {
    const nested = countingTool('post_to', 'write', { egress: true });
    const local = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [nested.tool, local.tool], egress: new GuardedEgress({ lookup }) });
    const parked = await h.call('post_to', { targets: [{ url: 'https://example.com/hook' }, { url: 'http://10.0.0.1/' }] });
    expect(parked.status === 'parked' && parked.parked.preview).to.match(
      / → https:\/\/example\.com\/hook: example\.com \(93\.184\.215\.14\); http:\/\/10\.0\.0\.1\/: 10\.0\.0\.1 \(private: will be refused\)$/,
    );
    const plain = await h.call('notes_add', { text: 'see http://127.1/' });
    expect(plain.status === 'parked' && plain.parked.preview).to.equal('notes_add {"text":"see http://127.1/"}');
  });

  it('approved anyway, the call is refused with egress-refused and never connects', async () => {
    const h = harness();
    const id = parkedId(await h.call('web_fetch', { url: 'http://rebind.example:5432/' }));
    await h.decide.execute({ principal: ada, approvalId: id, approve: true });
    const ran = await h.executeApproved.execute({ approvalId: id, principal: ada, signal: new AbortController().signal });
    expect(ran).to.deep.equal({
      status: 'failed',
      error: 'Porter will not connect to rebind.example: it resolves to a loopback address',
      code: 'forbidden',
      reason: 'egress-refused',
    });
  });
});
