import { expect } from 'chai';
import { armedInWords, concurrencyInWords, runMetaInWords } from '../../../../adapters/chrome/client/automation-words.js';

describe('The automations page says an automation’s settings and its runs in words (automation-words)', () => {
  it('says how many runs go at a time only when it is not one queueing the rest', () => {
    expect(concurrencyInWords(undefined)).to.equal(null);
    expect(concurrencyInWords({ limit: 1, whenBusy: 'queue' })).to.equal(null);
    expect(concurrencyInWords({ limit: 3, whenBusy: 'queue' })).to.equal('3 at a time');
    expect(concurrencyInWords({ limit: 1, whenBusy: 'skip' })).to.equal('1 at a time, skips the rest');
  });

  it('says an automation is armed, or which standing permissions it waits for, with Approvals offered', () => {
    expect(armedInWords('Morning summary', [])).to.deep.equal({ text: '“Morning summary” is armed.' });
    expect(armedInWords('Morning summary', [{ tool: 'notes_add' }, { tool: 'gmail_send' }])).to.deep.equal({
      text: '“Morning summary” needs your standing permission for notes_add, gmail_send before it runs on its own.',
      approvals: true,
    });
  });

  it('says how a listed run started and, past its first, which attempt it is on', () => {
    expect(runMetaInWords({})).to.equal('');
    expect(runMetaInWords({ cause: { kind: 'run-now' } })).to.equal(' · run now');
    expect(runMetaInWords({ cause: { kind: 'new-kind' }, attempts: [{ number: 1 }] })).to.equal(' · new-kind');
    expect(runMetaInWords({ cause: { kind: 'schedule' }, attempts: [{ number: 1 }, { number: 2 }] })).to.equal(' · schedule · attempt 2');
  });
});
