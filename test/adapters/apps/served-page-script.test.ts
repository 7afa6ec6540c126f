import { expect } from 'chai';
import { Script, createContext } from 'node:vm';
import { inlineServedPageScript, servedPageBundle, SERVED_PAGE_GLOBAL } from '../../../adapters/apps/served-page-script.js';

describe('The served page’s runtime is one browser script, bundled once (served-page-script)', () => {
  it('sets the global the page starts it from, and names nothing of Node', () => {
    const context = createContext({});
    new Script(servedPageBundle()).runInContext(context);
    const global = (context as Record<string, unknown>)[SERVED_PAGE_GLOBAL] as { startServedPage?: unknown };
    expect(global.startServedPage).to.be.a('function');
    expect(servedPageBundle()).not.to.match(/\brequire\(|node:/);
  });

  it('bundles once per process', () => {
    expect(servedPageBundle()).to.equal(servedPageBundle());
  });

  it('inlines with its start, where no text can close the script element early', () => {
    const script = inlineServedPageScript('porterServedPage.startServedPage({ title: "</script><script>alert(1)</script>" });');
    expect(script).not.to.match(/<\/script/i);
    expect(script).to.contain('<\\/script><script>alert(1)<\\/script>');
  });
});
