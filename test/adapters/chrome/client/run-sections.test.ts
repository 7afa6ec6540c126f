import { expect } from 'chai';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { RunAttempts } from '../../../../adapters/chrome/client/run-attempts.js';
import { RunPreviews } from '../../../../adapters/chrome/client/run-previews.js';
import { RunWebhookLog } from '../../../../adapters/chrome/client/run-webhook-log.js';
import type { RunAttempt, RunWebhookLog as WebhookLog } from '../../../../adapters/chrome/client/run-shapes.js';

/** The text a person reads in a piece of markup, tags dropped and spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

const AT = '2026-11-29T09:00:00.000Z';

describe('A run page’s sections, drawn without a browser (run-attempts, run-previews, run-webhook-log)', () => {
  it('lists each attempt with how it ended, its error and why it was tried again', () => {
    const attempts: RunAttempt[] = [
      { number: 1, startedAt: AT, endedAt: AT, outcome: 'interrupted', error: null, retryAt: AT },
      { number: 2, startedAt: AT, endedAt: AT, outcome: 'failed', error: 'The model timed out.', retryAt: AT },
      { number: 3, startedAt: AT, endedAt: null, outcome: null, error: null, retryAt: null },
    ];
    const html = renderToStaticMarkup(createElement(RunAttempts, { attempts }));
    const text = textOf(html);
    expect(text).to.match(/^Attempts Attempt 1 Interrupted .* Its instance stopped; tried again .+, after the calls it had finished/);
    expect(text).to.match(/Attempt 2 Failed .* The model timed out\. Tried again /);
    expect(text).to.contain('Attempt 3 Going on');
    expect(html.match(/data-outcome="([^"]+)"/g)).to.deep.equal([
      'data-outcome="interrupted"',
      'data-outcome="failed"',
      'data-outcome="going"',
    ]);
  });

  it('shows what a dry run would have done, each with its tool and risk, or that it did nothing', () => {
    const html = renderToStaticMarkup(
      createElement(RunPreviews, {
        live: false,
        previews: [{ toolCallId: 'c1', tool: 'gmail_send', risk: 'write', egress: true, preview: 'Send an email to Sam' }],
      }),
    );
    expect(textOf(html)).to.match(/^What it would have done Send an email to Sam gmail_send/);
    expect(html).to.contain('data-tool="gmail_send"');
    expect(textOf(renderToStaticMarkup(createElement(RunPreviews, { live: true, previews: [] })))).to.equal(
      'What it would have done Nothing yet.',
    );
    expect(textOf(renderToStaticMarkup(createElement(RunPreviews, { live: false, previews: [] })))).to.equal(
      'What it would have done Nothing: it made no change and reached nothing outside.',
    );
  });

  it('shows the completion webhook’s delivery: where it stands, each answer, and when it is tried next', () => {
    const webhook: WebhookLog = {
      id: 'whd_1',
      url: 'https://example.com/hooks',
      type: 'run.succeeded',
      state: 'pending',
      nextAttemptAt: AT,
      attempts: [
        { number: 1, at: AT, status: 503, error: null, durationMs: 41 },
        { number: 2, at: AT, status: null, error: 'Connection refused', durationMs: 3 },
      ],
    };
    const html = renderToStaticMarkup(createElement(RunWebhookLog, { webhook }));
    const text = textOf(html);
    expect(text).to.match(/^Completion webhook Sending run\.succeeded to https:\/\/example\.com\/hooks · next try /);
    expect(text).to.match(/1 .* HTTP 503 41 ms 2 .* Connection refused 3 ms$/);
    expect(html).to.contain('data-webhook-state="pending"');
  });

  it('says a webhook not sent yet, and one delivered or not delivered in words', () => {
    const base: WebhookLog = {
      id: 'whd_1',
      url: 'https://example.com/h',
      type: 'run.failed',
      state: 'delivered',
      nextAttemptAt: null,
      attempts: [],
    };
    expect(textOf(renderToStaticMarkup(createElement(RunWebhookLog, { webhook: base })))).to.match(
      /^Completion webhook Delivered .* Not sent yet\.$/,
    );
    expect(textOf(renderToStaticMarkup(createElement(RunWebhookLog, { webhook: { ...base, state: 'failed' } })))).to.contain(
      'Not delivered',
    );
  });
});
