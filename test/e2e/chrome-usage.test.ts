import { expect } from 'chai';
import { chromeSuite, say } from '../support/browser.js';

describe('What is left of the budgets in the shipped chrome (headless Chromium)', function () {
  this.timeout(120_000);
  // The refused turn is a 429 the page answers; the browser logs the failed request itself.
  const chrome = chromeSuite(() => ({ porter: { limits: { turns: { max: 5, windowSeconds: 3600 } } } }), {
    ignore: /status of 429 \(Too Many Requests\)/,
  });

  it('shows a meter per budget, warns by the message box when it runs low, and says when in words, never in seconds', async () => {
    const yan = chrome.host.client.as('yan');
    const threadId = await yan.newThread();
    for (const text of ['one', 'two', 'three', 'four']) await yan.say(threadId, text);

    const { page, screenshot } = await chrome.open({ user: 'yan' });
    const meter = page.locator('.usage-meters [data-budget="turns"]');
    await meter.waitFor();
    expect(await meter.locator('.usage-name').textContent()).to.equal('Messages');
    expect(await meter.locator('meter').getAttribute('value')).to.equal('1');
    // A wait of exactly the window (read in the second the turn was counted) is "in 1 hour", without "about".
    expect(await meter.locator('.usage-left').textContent()).to.match(/^1 of 5 left · frees up in (about )?1 hour$/);
    const warning = page.locator('[data-usage-warning]');
    expect(await warning.textContent()).to.match(/^1 of 5 messages left, frees up in (about )?1 hour$/);
    await screenshot('chrome-usage-low');

    await say(page, 'five');
    await page.locator('.usage-meters [data-budget="turns"] meter[value="0"]').waitFor();
    // The meter and the warning by the message box may be drawn a frame apart.
    await page.locator('[data-usage-warning]', { hasText: /^No messages left/ }).waitFor();
    expect(await warning.textContent()).to.match(/^No messages left: more in (about )?1 hour$/);
    await say(page, 'six');
    await page
      .getByText(/try again in (about )?1 hour/)
      .first()
      .waitFor();
    expect(await page.locator('main').textContent()).to.not.match(/try again in \d+ s\b/);
    await screenshot('chrome-usage-spent');
  });
});
