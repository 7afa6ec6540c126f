import { expect } from 'chai';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AutomationCard, type AutomationCardActions } from '../../../../adapters/chrome/client/automation-card.js';
import { AutomationRuns } from '../../../../adapters/chrome/client/automation-runs.js';
import type { Automation, ListedRun } from '../../../../adapters/chrome/client/automation-shapes.js';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const AUTOMATION: Automation = {
  id: 'aut_1',
  name: 'Inbox digest',
  trigger: { kind: 'webhook', source: 'demo' },
  task: { prompt: 'Summarise what arrived.' },
  armed: false,
  concurrency: { limit: 2, whenBusy: 'skip' },
  notify: { url: 'https://example.com/hooks' },
};
const nothing = () => undefined;
const actions = (fields: Partial<AutomationCardActions> = {}): AutomationCardActions => ({
  trying: null,
  editing: false,
  runNow: nothing,
  dryRun: nothing,
  arm: nothing,
  disarm: nothing,
  remove: nothing,
  toggleEdit: nothing,
  ...fields,
});

describe('The automations page’s pieces, drawn without a browser (automation-card, automation-runs)', () => {
  it('shows an automation: disarmed, its webhook, how many at a time, that it notifies, its task and its buttons', () => {
    const text = textOf(renderToStaticMarkup(createElement(AutomationCard, { automation: AUTOMATION, actions: actions() })));
    expect(text).to.equal(
      'Inbox digest Disarmed Webhook “demo” 2 at a time, skips the rest Notifies when a run ends Run now Dry run Arm Edit Delete Summarise what arrived.',
    );
  });

  it('offers Disarm on an armed automation, and holds both starts while one is trying', () => {
    const html = renderToStaticMarkup(
      createElement(AutomationCard, { automation: { ...AUTOMATION, armed: true }, actions: actions({ trying: 'aut_1' }) }),
    );
    expect(textOf(html)).to.contain('Armed');
    expect(textOf(html)).to.contain('Trying… Disarm Edit Delete');
    expect(html.match(/disabled=""/g)).to.have.length(2);
  });

  it('lists runs by their automation’s name with their state, cause and attempt, and Stop on a live one only', () => {
    const runs: ListedRun[] = [
      { id: 'run_2', automationId: 'aut_1', state: 'running', createdAt: '2026-11-29T09:00:00.000Z', cause: { kind: 'webhook' } },
      {
        id: 'run_1',
        automationId: 'aut_gone',
        state: 'succeeded',
        createdAt: '2026-11-29T08:00:00.000Z',
        cause: { kind: 'schedule' },
        attempts: [{ number: 1 }, { number: 2 }],
        failedCalls: 1,
      },
    ];
    const html = renderToStaticMarkup(
      createElement(AutomationRuns, { runs, names: new Map([['aut_1', 'Inbox digest']]), onStop: nothing }),
    );
    const text = textOf(html);
    expect(text).to.match(/^Runs Running Inbox digest .* · webhook Stop Finished with failed calls aut_gone .* · schedule · attempt 2$/);
    expect(html).to.contain('href="#/runs/run_2"');
  });

  it('says there are no runs yet once the list is read, and nothing before', () => {
    expect(textOf(renderToStaticMarkup(createElement(AutomationRuns, { runs: [], names: new Map(), onStop: nothing })))).to.equal(
      'Runs No runs yet.',
    );
    expect(textOf(renderToStaticMarkup(createElement(AutomationRuns, { runs: undefined, names: new Map(), onStop: nothing })))).to.equal(
      'Runs',
    );
  });
});
