import { expect } from 'chai';
import { themeOf } from '../../../../adapters/apps/served-page/page-theme.js';

describe('The served page follows the framing page’s theme, and nothing else (page-theme)', () => {
  it('follows a dark or light scheme and a hex accent', () => {
    expect(themeOf({ scheme: 'dark', accent: '#3366ff' })).to.deep.equal({ scheme: 'dark', accent: '#3366ff' });
    expect(themeOf({ scheme: 'light', accent: '#abc' })).to.deep.equal({ scheme: 'light', accent: '#abc' });
  });

  it('ignores another scheme and an accent that is not a hex colour, so no message can inject CSS', () => {
    expect(themeOf({ scheme: 'sepia', accent: 'red; background: url(https://evil.example)' })).to.deep.equal({});
    expect(themeOf({ accent: '#12345678' })).to.deep.equal({ accent: '#12345678' });
    expect(themeOf({ accent: '#123456789' })).to.deep.equal({});
  });

  it('follows nothing from no theme at all', () => {
    expect(themeOf(undefined)).to.deep.equal({});
    expect(themeOf(null)).to.deep.equal({});
  });
});
