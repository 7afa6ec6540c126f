import { expect } from 'chai';
import { chromeSuite, say } from '../support/browser.js';

const HANDBOOK = [
  'Our office opens at nine and closes at six on weekdays.',
  'A trip cancelled two weeks ahead is refunded in full by the zephyrine desk, to the card it was paid with.',
  'Baggage of up to eight kilograms travels in the cabin.',
].join('\n\n');

describe('Knowledge citations in the shipped chrome (headless Chromium)', function () {
  this.timeout(120_000);
  // Bob's passage is 404 to ada: the browser logs the refused request itself.
  const chrome = chromeSuite(undefined, { ignore: /status of 404 \(Not Found\)/ });

  it('shows the sources under the answer; a citation opens the passage it points at, and only for whom it may', async () => {
    const document = await chrome.host.porter.knowledge.add({ title: 'Travel handbook', format: 'text', content: HANDBOOK });
    const { page, screenshot } = await chrome.open({ user: 'ada' });
    await say(page, '/knowledge zephyrine refunded');
    const sources = page.getByRole('navigation', { name: 'Sources' });
    const citation = sources.getByRole('button', { name: /Travel handbook/ });
    await citation.waitFor();
    const passageId = await citation.getAttribute('data-passage-id');
    expect(passageId).to.match(/^psg_/);
    await screenshot('chrome-knowledge-citations');

    await citation.click();
    const dialog = page.getByRole('dialog', { name: 'Travel handbook' });
    await dialog.locator('.passage-text').waitFor();
    const shown = await dialog.locator('.passage-text').textContent();
    expect(shown).to.contain('refunded in full by the zephyrine desk');
    const [hit] = await chrome.host.porter.knowledge.search({ subject: 'ada', kind: 'user' }, 'zephyrine');
    expect(hit).to.deep.include({ id: passageId, documentId: document.id, text: shown });
    await screenshot('chrome-knowledge-passage');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The answer keeps its citations after a reload.
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Sources' })
      .getByRole('button', { name: /Travel handbook/ })
      .waitFor();

    // Another person's passage does not open for ada: the dialog says so.
    const bobs = await chrome.host.porter.knowledge.add({
      title: 'Bob’s notes',
      format: 'text',
      content: 'The ocelot committee keeps the vault code.',
      scope: { kind: 'person', subject: 'bob' },
    });
    const [bobHit] = await chrome.host.porter.knowledge.search({ subject: 'bob', kind: 'user' }, 'ocelot');
    expect(bobHit!.documentId).to.equal(bobs.id);
    const refused = await page.evaluate(async (id) => (await fetch(`/api/porter/knowledge/passages/${id}`)).status, bobHit!.id);
    expect(refused).to.equal(404);
  });
});
