import { expect } from 'chai';
import { AesGcmSecretBox } from '../../../adapters/runtime/aes-gcm-secret-box.js';

const OLD = 'an-old-deployment-secret-0123456789abcdef';
const NEW = 'a-new-deployment-secret-0123456789abcdefgh';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('AesGcmSecretBox', () => {
  it('seals so the store never holds the secret, and opens it again with the same deployment secret', () => {
    const box = new AesGcmSecretBox([NEW]);
    const sealed = box.seal(SECRET, 'atm_0000000001');
    expect(sealed).to.match(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).to.not.include(SECRET.slice(6));
    expect(box.seal(SECRET, 'atm_0000000001')).to.not.equal(sealed);
    expect(new AesGcmSecretBox([NEW]).open(sealed, 'atm_0000000001')).to.equal(SECRET);
  });

  it('opens what the old secret sealed while PORTER_SECRET is rotated ([new, old]), and seals with the new one', () => {
    const sealedBefore = new AesGcmSecretBox([OLD]).seal(SECRET, 'atm_1');
    const rotating = new AesGcmSecretBox([NEW, OLD]);
    expect(rotating.open(sealedBefore, 'atm_1')).to.equal(SECRET);
    expect(new AesGcmSecretBox([NEW]).open(rotating.seal(SECRET, 'atm_1'), 'atm_1')).to.equal(SECRET);
  });

  it('answers null, never garbage: another deployment, another record, a tampered or malformed value', () => {
    const box = new AesGcmSecretBox([NEW]);
    const sealed = box.seal(SECRET, 'atm_1');
    expect(new AesGcmSecretBox([OLD]).open(sealed, 'atm_1')).to.equal(null);
    expect(box.open(sealed, 'atm_2')).to.equal(null);
    const [version, iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(box.open([version, iv, flipped.toString('base64url'), tag].join('.'), 'atm_1')).to.equal(null);
    expect(box.open([version, iv, body, tag!.slice(0, 6)].join('.'), 'atm_1'), 'a shortened tag').to.equal(null);
    for (const junk of ['', 'v1', 'v2.a.b.c', 'not sealed at all']) expect(box.open(junk, 'atm_1')).to.equal(null);
  });
});
