import { expect } from 'chai';
import { createElement, Fragment, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import * as browser from '../../../composition/react.js';
import * as server from '../../../composition/react-server-render.js';

type Entry = Pick<typeof browser, 'usePorterThread' | 'isPorterToolPart' | 'PorterToolPart'>;

/** The quickstart's page, drawn with one of the two builds of porter-runtime/react. */
const page = (entry: Entry) =>
  function Page(): ReactNode {
    const chat = entry.usePorterThread({ wire: '/api/porter' });
    return createElement(
      'main',
      { 'data-ready': String(chat.ready), 'data-thread': chat.threadId ?? '' },
      chat.messages.map((message) =>
        createElement(
          Fragment,
          { key: message.id },
          message.parts.map((part, i) =>
            entry.isPorterToolPart(part)
              ? createElement(entry.PorterToolPart, { key: i, part, onApprovalResponse: chat.addToolApprovalResponse })
              : null,
          ),
        ),
      ),
      createElement('button', { disabled: !chat.ready || chat.status !== 'ready' }, 'Send'),
    );
  };

describe('porter-runtime/react as Node loads it (module-sync): a server render without hooks', () => {
  it('renders what the browser build renders before the thread opens, so the page hydrates', () => {
    const html = renderToString(createElement(page(server)));
    expect(html).to.equal(renderToString(createElement(page(browser))));
    expect(html).to.contain('data-ready="false"');
  });

  it('calls no hook: it renders outside any React render too (as with a React copy that is not the renderer’s)', () => {
    const chat = server.usePorterThread({ wire: '/api/porter' });
    expect(chat).to.include({ ready: false, threadId: null, status: 'ready' });
    expect(chat.messages).to.deep.equal([]);
    expect(() => chat.sendMessage({ text: 'hi' })).to.throw(/works in the browser/);
    const view = server.usePorterToolPart({
      part: { type: 'tool-add_note', toolCallId: 'c1', state: 'approval-requested', input: { text: 'milk' }, approval: { id: 'a1' } },
    });
    expect(view).to.include({ toolName: 'add_note', answering: false });
    expect(view.approval).to.deep.equal({ id: 'a1', card: null });
  });

  it('gives Node with a DOM (a component test under jsdom) the real hooks', () => {
    const globals = globalThis as { window?: unknown; document?: unknown };
    globals.window = globalThis;
    globals.document = {};
    try {
      // Outside a render a real hook has no dispatcher: that it throws shows the browser build ran.
      expect(() => server.usePorterThread({ wire: '/api/porter' })).to.throw(/useRef|hook|null/i);
    } finally {
      delete globals.window;
      delete globals.document;
    }
    expect(server.usePorterThread({ wire: '/api/porter' })).to.include({ ready: false });
  });

  it('is what package.json gives Node for porter-runtime/react, and the browser build everywhere else', async () => {
    const manifest = (await import('../../../package.json', { with: { type: 'json' } })).default;
    expect(Object.keys(manifest.exports['./react'])).to.deep.equal(['types', 'module-sync', 'default']);
    expect(manifest.exports['./react']['module-sync']).to.equal('./dist/composition/react-server-render.js');
  });
});
