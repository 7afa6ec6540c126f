import { expect } from 'chai';
import { createElement, type ComponentPropsWithoutRef } from 'react';
import { renderToString } from 'react-dom/server';
import type { UIMessage } from 'ai';
import { PorterToolPart, usePorterThread, type PorterToolPartProps, type PorterToolUIPart } from '../../../composition/react.js';

const html = (props: PorterToolPartProps) => renderToString(createElement(PorterToolPart, props));

const waiting: PorterToolUIPart = {
  type: 'dynamic-tool',
  toolName: 'files_delete',
  toolCallId: 'call-1',
  state: 'approval-requested',
  input: { path: 'report.pdf' },
  approval: { id: 'appr-1' },
};
const message: UIMessage = {
  id: 'm1',
  role: 'assistant',
  parts: [
    waiting,
    {
      type: 'data-porter-approval',
      id: 'porter-approval:appr-1',
      data: { approvalId: 'appr-1', toolCallId: 'call-1', risk: 'destructive', preview: 'Delete report.pdf', egress: true },
    },
  ],
};

describe('porter-runtime/react rendered on a server (no window, no requests)', () => {
  it('usePorterThread renders its not-ready state: no thread id, nothing read from an address', () => {
    let fetched = 0;
    const realFetch = globalThis.fetch;
    globalThis.fetch = async () => {
      fetched += 1;
      throw new Error('no requests while rendering');
    };
    try {
      const Chat = () => {
        const chat = usePorterThread({ wire: '/api/porter' });
        return createElement('p', null, chat.ready ? `open ${chat.threadId}` : `loading ${String(chat.threadId)} ${chat.status}`);
      };
      expect(renderToString(createElement(Chat))).to.equal('<p>loading null ready</p>');
      expect(fetched).to.equal(0);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('usePorterThread refuses to start without a wire, saying what it needs', () => {
    const Chat = () => {
      usePorterThread({} as { wire: string });
      return null;
    };
    expect(() => renderToString(createElement(Chat))).to.throw(TypeError, /needs `wire`/);
  });
});

describe('PorterToolPart', () => {
  it('a call waiting for approval: Porter’s preview, risk and egress from its message, Deny and Approve as real buttons', () => {
    const out = html({ part: waiting, message, onApprovalResponse: () => undefined });
    expect(out).to.contain('data-slot="porter-tool" data-tool="files_delete" data-state="approval-requested" data-risk="destructive"');
    expect(out).to.contain('role="group" aria-label="Approval needed: files_delete"');
    expect(out).to.match(/data-slot="porter-tool-preview" id="([^"]+)">Delete report.pdf<\/p>/);
    expect(out).to.contain('>Destructive</span>');
    expect(out).to.contain('>Reaches the internet</span>');
    expect(out).to.match(/<button type="button" data-slot="porter-tool-deny" aria-describedby="[^"]+">Deny<\/button>/);
    expect(out).to.match(/<button type="button" data-slot="porter-tool-approve" aria-describedby="[^"]+">Approve<\/button>/);
    expect(out).to.contain('&quot;path&quot;: &quot;report.pdf&quot;');
  });

  it('without Porter’s card it still offers Approve and Deny; without onApprovalResponse they are disabled', () => {
    const out = html({ part: waiting, onApprovalResponse: () => undefined });
    expect(out).to.match(/<button type="button" data-slot="porter-tool-approve">Approve<\/button>/);
    expect(out).to.not.contain('porter-tool-preview');
    expect(html({ part: waiting })).to.match(/<button type="button" data-slot="porter-tool-approve" disabled="">Approve<\/button>/);
  });

  it('a result, an error and an answered approval, in words', () => {
    const done = html({
      part: { ...waiting, state: 'output-available', output: { deleted: true }, approval: { id: 'appr-1', approved: true } },
    });
    expect(done).to.contain('data-state="output-available"').and.contain('>Done</span>').and.contain('&quot;deleted&quot;: true');
    expect(done).to.not.contain('Approve');
    const failed = html({
      part: { ...waiting, state: 'output-error', errorText: 'disk full', approval: { id: 'appr-1', approved: true } },
    });
    expect(failed).to.contain('>Failed</span>').and.contain('data-slot="porter-tool-error">disk full</p>');
    const answered = html({ part: { ...waiting, state: 'approval-responded', approval: { id: 'appr-1', approved: false } } });
    expect(answered).to.contain('>Denied</span>');
  });

  it('takes classes per slot, a design system’s Button, other words, and no input', () => {
    const Button = (props: ComponentPropsWithoutRef<'button'>) => createElement('button', { ...props, 'data-ds': 'yes' });
    const out = html({
      part: waiting,
      message,
      className: 'card',
      classNames: { root: 'tool', approve: 'primary', state: 'muted' },
      components: { Button },
      labels: { approve: 'Allow', states: { 'approval-requested': 'Waiting for you' } },
      showInput: false,
    });
    expect(out).to.contain('class="card tool"');
    expect(out).to.contain('class="muted" data-slot="porter-tool-state">Waiting for you</span>');
    expect(out).to.match(/<button type="button" class="primary" data-slot="porter-tool-approve"[^>]*data-ds="yes">Allow<\/button>/);
    expect(out).to.not.contain('report.pdf&quot;');
  });

  it('draws what a render function returns, given the call and its approval', () => {
    const out = html({
      part: waiting,
      message,
      children: (tool) =>
        createElement('span', null, `${tool.toolName} ${tool.approval?.id} ${tool.approval?.card?.preview} ${tool.riskLabel}`),
    });
    expect(out).to.equal('<span>files_delete appr-1 Delete report.pdf Destructive</span>');
  });
});
