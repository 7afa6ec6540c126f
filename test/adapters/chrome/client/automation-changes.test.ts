import { expect } from 'chai';
import { automationBody, changesOf, type AutomationFields } from '../../../../adapters/chrome/client/automation-changes.js';
import type { Automation } from '../../../../adapters/chrome/client/automation-shapes.js';

const FIELDS: AutomationFields = {
  name: 'Morning summary',
  kind: 'schedule',
  cron: ' 0 8 * * * ',
  timezone: 'Europe/Paris',
  source: '',
  prompt: 'Summarise my notes.',
  tools: new Set(),
  retries: '2',
  whenBusy: 'queue',
  notifyUrl: '',
};
const EXISTING: Automation = {
  id: 'aut_1',
  name: 'Morning summary',
  trigger: { kind: 'schedule', cron: '0 8 * * *', timezone: 'Europe/Paris' },
  task: { prompt: 'Summarise my notes.' },
  armed: true,
  retry: { max: 2, backoffSeconds: 30 },
  concurrency: { limit: 3, whenBusy: 'queue' },
  notify: null,
};

describe('The automation form sends what was filled in, and an edit only what changed (automation-changes)', () => {
  it('sends a schedule with its trimmed cron and time zone, one run at a time, and no webhook without a URL', () => {
    expect(automationBody(FIELDS)).to.deep.equal({
      name: 'Morning summary',
      trigger: { kind: 'schedule', cron: '0 8 * * *', timezone: 'Europe/Paris' },
      task: { prompt: 'Summarise my notes.' },
      retry: { max: 2 },
      concurrency: { limit: 1, whenBusy: 'queue' },
    });
  });

  it('sends a webhook trigger, the tools picked, skipping when busy and the completion URL', () => {
    const body = automationBody({
      ...FIELDS,
      kind: 'webhook',
      source: 'demo',
      tools: new Set(['notes_add', 'notes_list']),
      whenBusy: 'skip',
      notifyUrl: 'https://example.com/hooks',
    });
    expect(body.trigger).to.deep.equal({ kind: 'webhook', source: 'demo' });
    expect(body.task).to.deep.equal({ prompt: 'Summarise my notes.', tools: ['notes_add', 'notes_list'] });
    expect(body.concurrency).to.deep.equal({ limit: 1, whenBusy: 'skip' });
    expect(body.notify).to.deep.equal({ url: 'https://example.com/hooks' });
  });

  it('changes nothing when nothing changed, whatever order the fields come in', () => {
    expect(changesOf(EXISTING, automationBody(FIELDS), '')).to.deep.equal({});
  });

  it('sends only the name when only the name changed, so an armed automation stays armed', () => {
    expect(changesOf(EXISTING, automationBody({ ...FIELDS, name: 'Evening summary' }), '')).to.deep.equal({ name: 'Evening summary' });
  });

  it('keeps the limit and backoff the form does not offer when retries or busy handling change', () => {
    const changes = changesOf(EXISTING, automationBody({ ...FIELDS, retries: '5', whenBusy: 'skip' }), '');
    expect(changes).to.deep.equal({ retry: { max: 5, backoffSeconds: 30 }, concurrency: { limit: 3, whenBusy: 'skip' } });
  });

  it('reads a schedule with no time zone as UTC, and sends the completion URL set or cleared', () => {
    const utc: Automation = { ...EXISTING, trigger: { kind: 'schedule', cron: '0 8 * * *' }, notify: { url: 'https://example.com/a' } };
    expect(
      changesOf(utc, automationBody({ ...FIELDS, timezone: 'UTC', notifyUrl: 'https://example.com/a' }), 'https://example.com/a'),
    ).to.deep.equal({});
    expect(changesOf(utc, automationBody({ ...FIELDS, timezone: 'UTC' }), '')).to.deep.equal({ notify: null });
    expect(changesOf(EXISTING, automationBody(FIELDS), 'https://example.com/b')).to.deep.equal({
      notify: { url: 'https://example.com/b' },
    });
  });
});
