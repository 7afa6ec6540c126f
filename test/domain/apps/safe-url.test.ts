import { expect } from 'chai';
import { safeUrl } from '../../../domain/apps/safe-url.js';
import { HOSTILE_URLS, schemeFollowed } from '../../support/hostile-urls.js';

const PAGE = 'https://porter.example/apps/app_1';

describe('safeUrl: what a rendered app may link to or show', () => {
  it('never hands back a URL a browser would follow to anything but http(s) or an image data URL', () => {
    for (const url of HOSTILE_URLS) {
      for (const image of [false, true]) {
        for (const base of [PAGE, undefined]) {
          const kept = safeUrl(url, image, base);
          if (kept === undefined) continue;
          expect(schemeFollowed(kept), `${JSON.stringify(url)} (image ${image}, base ${base})`).to.be.oneOf(['https:', 'http:']);
        }
      }
    }
  });

  it('refuses script-running schemes in every spelling', () => {
    // Those with a scheme of their own, as the browser parses them (the rest are paths on the page).
    const schemed = HOSTILE_URLS.filter((u) => URL.canParse(u));
    expect(schemed).to.have.length.greaterThan(14);
    for (const url of schemed) {
      expect(safeUrl(url, false, PAGE), JSON.stringify(url)).to.equal(undefined);
      expect(safeUrl(url, true, PAGE), JSON.stringify(url)).to.equal(undefined);
      expect(safeUrl(url, false), JSON.stringify(url)).to.equal(undefined);
    }
  });

  it('keeps http(s) links, https and raster data images, and references relative to the page', () => {
    expect(safeUrl('https://example.com/a?b=1#c', false, PAGE)).to.equal('https://example.com/a?b=1#c');
    expect(safeUrl('http://example.com/', false, PAGE)).to.equal('http://example.com/');
    expect(safeUrl('http://example.com/x.png', true, PAGE), 'no absolute http images').to.equal(undefined);
    expect(safeUrl('data:image/png;base64,iVBORw0KGgo=', true)).to.equal('data:image/png;base64,iVBORw0KGgo=');
    expect(safeUrl('data:image/png;base64,iVBORw0KGgo=', false), 'a data URL is no link').to.equal(undefined);
    expect(safeUrl('notes/today', false, PAGE)).to.equal('https://porter.example/apps/notes/today');
    expect(safeUrl('notes/today', false)).to.equal('notes/today');
    expect(safeUrl('//cdn.example/x.png', true, PAGE)).to.equal('https://cdn.example/x.png');
    for (const nothing of ['', '   ', undefined, 42, null]) expect(safeUrl(nothing, false, PAGE)).to.equal(undefined);
  });

  it('is self-contained, so the static server can carry its text', () => {
    const copy = new Function(`return (${safeUrl.toString()});`)() as typeof safeUrl;
    for (const url of [...HOSTILE_URLS, 'https://example.com/', 'notes', 'data:image/gif;base64,R0lGOD']) {
      for (const image of [false, true]) expect(copy(url, image), JSON.stringify(url)).to.equal(safeUrl(url, image));
    }
  });
});
