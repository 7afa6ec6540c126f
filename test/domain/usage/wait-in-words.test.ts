import { expect } from 'chai';
import { waitInWords } from '../../../domain/usage/wait-in-words.js';

describe('waitInWords', () => {
  it('says seconds exactly, and larger units rounded with "about"', () => {
    expect(waitInWords(42)).to.equal('in 42 seconds');
    expect(waitInWords(0.2)).to.equal('in 1 second');
    expect(waitInWords(300)).to.equal('in 5 minutes');
    expect(waitInWords(290)).to.equal('in about 5 minutes');
    expect(waitInWords(3_600)).to.equal('in 1 hour');
    expect(waitInWords(2 * 86_400 + 5)).to.equal('in about 2 days');
  });

  it('never says 60 minutes or 24 hours: a wait that rounds up to the next unit is said in it', () => {
    expect(waitInWords(3_599)).to.equal('in about 1 hour');
    expect(waitInWords(3_570)).to.equal('in about 1 hour');
    expect(waitInWords(3_569)).to.equal('in about 59 minutes');
    expect(waitInWords(86_399)).to.equal('in about 1 day');
    expect(waitInWords(84_599)).to.equal('in about 23 hours');
  });

  it('speaks the locale it is given, without the English "about"', () => {
    expect(waitInWords(3_599, 'de')).to.equal('in 1 Stunde');
  });
});
