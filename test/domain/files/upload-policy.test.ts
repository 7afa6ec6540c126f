import { expect } from 'chai';
import { fileIdOfUrl } from '../../../domain/files/file-reference.js';
import { safeFilename } from '../../../domain/files/uploaded-file.js';
import { DEFAULT_UPLOAD_POLICY, judgedMediaType, matchesMediaType, modelFormOf } from '../../../domain/files/upload-policy.js';

describe('Upload policy', () => {
  it('judges bytes by their signature first: a PNG is a PNG whatever the client said', () => {
    expect(judgedMediaType('image/png', 'text/plain', false)).to.equal('image/png');
    expect(judgedMediaType('image/png', 'application/pdf', false)).to.equal('image/png');
  });

  it('takes text only when the bytes read as text and the client said text; anything else is unknown', () => {
    expect(judgedMediaType(null, 'text/markdown', true)).to.equal('text/markdown');
    expect(judgedMediaType(null, 'text/markdown', false)).to.equal(null);
    expect(judgedMediaType(null, 'image/png', true)).to.equal(null);
    expect(judgedMediaType(null, 'application/octet-stream', true)).to.equal(null);
  });

  it('matches exact types and whole top-level types, case-insensitively', () => {
    expect(matchesMediaType(['image/*'], 'IMAGE/PNG')).to.equal(true);
    expect(matchesMediaType(['image/*'], 'imagex/png')).to.equal(false);
    expect(matchesMediaType(['application/pdf'], 'application/pdf')).to.equal(true);
    expect(matchesMediaType(DEFAULT_UPLOAD_POLICY.accept, 'image/svg+xml'), 'SVG (scriptable) is not accepted by default').to.equal(false);
  });

  it('shows the model a file it reads as the file, text as text, a PDF it cannot read as text, and refuses the rest', () => {
    const imagesOnly = { ...DEFAULT_UPLOAD_POLICY, modelReads: ['image/*'] };
    expect(modelFormOf(DEFAULT_UPLOAD_POLICY, 'application/pdf')).to.equal('file');
    expect(modelFormOf(imagesOnly, 'application/pdf')).to.equal('pdf-text');
    expect(modelFormOf(imagesOnly, 'text/csv')).to.equal('text');
    expect(modelFormOf({ ...DEFAULT_UPLOAD_POLICY, modelReads: [] }, 'image/png')).to.equal('unreadable');
  });
});

describe('File references', () => {
  it('takes only a path on this wire ending in /files/<file id>', () => {
    expect(fileIdOfUrl('/api/porter/files/fil_01ARZ3NDEKTSV4RRFFQ69G5FAV')).to.equal('fil_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    for (const url of [
      'data:image/png;base64,AAAA',
      'https://example.com/api/porter/files/fil_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      '//example.com/files/fil_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      '/api/porter/files/thr_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      '/api/porter/files/fil_01ARZ3NDEKTSV4RRFFQ69G5FAV?x=1',
      '/api/porter/files/fil_01ARZ3NDEKTSV4RRFFQ69G5FAV/../x',
    ])
      expect(fileIdOfUrl(url), url).to.equal(null);
  });

  it('keeps a filename to its base name, without control characters or quotes', () => {
    expect(safeFilename('../../etc/passwd')).to.equal('passwd');
    expect(safeFilename('C:\\\\Users\\\\me\\\\a"b\u0007.png')).to.equal('ab.png');
    expect(safeFilename('   ')).to.equal('file');
  });
});
