import { expect } from 'chai';
import { chromeSuite } from '../support/browser.js';
import { until } from '../support/eventually.js';

type Memory = { id: string; text: string };
type Pending = { id: string; kind: string; label: string; undoUntil: string };

/** Short enough for a test, long enough for a reload on a busy machine. */
const UNDO_SECONDS = 6;

describe('Deleting with a way back in the shipped chrome (headless Chromium)', function () {
  this.timeout(120_000);
  const chrome = chromeSuite(() => ({ porter: { undoSeconds: UNDO_SECONDS } }));

  it('a forgotten memory shows "Deleted … Undo" with the time left; after a reload the Undo is still there and brings it back', async () => {
    const uma = chrome.host.client.as('uma');
    const { body: memory } = await uma.json<Memory>('POST', '/memories', { text: 'Uma keeps bees' });
    const { page, screenshot } = await chrome.open({ user: 'uma' });
    await page.goto(`${chrome.host.url}/#/memories`);
    const card = page.locator(`.memory[data-memory-id="${memory.id}"]`);
    await card.getByRole('button', { name: 'Forget: Uma keeps bees' }).click();

    const toast = page.locator('.undo-toast', { hasText: 'Deleted “Uma keeps bees”' });
    await toast.waitFor();
    await card.waitFor({ state: 'detached' });
    // The Forget button went with the card: focus moves to the toast's Undo, not to the top of the page.
    await page.waitForFunction(() => document.activeElement?.closest('.undo-toast') !== null);
    expect(await toast.locator('.undo-time').textContent()).to.match(/^[1-6] s$/);
    await screenshot('chrome-undo-toast');
    // Out of the list and of recall at once, but not deleted yet: the server holds it for the window.
    expect((await uma.json<{ memories: Memory[] }>('GET', '/memories')).body.memories).to.deep.equal([]);
    expect((await uma.json('GET', `/memories/${memory.id}`)).status).to.equal(200);

    await page.reload();
    const after = page.locator('.undo-toast', { hasText: 'Deleted “Uma keeps bees”' });
    await after.getByRole('button', { name: 'Undo: Deleted “Uma keeps bees”' }).click();
    await after.waitFor({ state: 'detached' });
    await page.locator(`.memory[data-memory-id="${memory.id}"]`).waitFor();
    // The Undo button went with its toast: focus lands on what came back.
    await page.waitForFunction((id) => document.activeElement?.closest(`[data-memory-id="${id}"]`) != null, memory.id);
    expect((await uma.json<{ memories: Memory[] }>('GET', '/memories')).body.memories.map((m) => m.id)).to.deep.equal([memory.id]);
    expect((await uma.json<{ deletions: Pending[] }>('GET', '/deletions')).body.deletions).to.deep.equal([]);
  });

  it('a deleted automation is still there until the window closes, even across a reload, and is deleted by the server after it', async () => {
    const vic = chrome.host.client.as('vic');
    const { body: automation } = await vic.json<{ id: string }>('POST', '/automations', {
      name: 'Morning digest',
      trigger: { kind: 'schedule', cron: '0 8 * * *' },
      task: { prompt: 'Summarise the news' },
    });
    const { page } = await chrome.open({ user: 'vic' });
    await page.goto(`${chrome.host.url}/#/automations`);
    await page.getByRole('button', { name: 'Delete Morning digest' }).click();
    const toast = page.locator('.undo-toast', { hasText: 'Deleted “Morning digest”' });
    await toast.waitFor();
    const [pending] = (await vic.json<{ deletions: Pending[] }>('GET', '/deletions')).body.deletions;
    expect(pending).to.deep.include({ id: automation.id, kind: 'automation', label: 'Morning digest' });

    await page.reload();
    await toast.waitFor();
    // Still stored while the window is open: an undo could bring it back.
    expect(Date.now()).to.be.below(Date.parse(pending!.undoUntil));
    expect((await vic.json('GET', `/automations/${automation.id}`)).status).to.equal(200);
    expect((await vic.json<{ automations: unknown[] }>('GET', '/automations')).body.automations).to.deep.equal([]);

    // The toast leaves when the window closes; the server deletes it then, with no page open.
    await toast.waitFor({ state: 'detached', timeout: (UNDO_SECONDS + 30) * 1000 });
    await page.close();
    const gone = await until(
      () => vic.json('GET', `/automations/${automation.id}`),
      (answer) => answer.status === 404,
      { what: 'the automation to be deleted after its undo window' },
    );
    expect(gone.status).to.equal(404);
    expect(Date.now()).to.be.at.least(Date.parse(pending!.undoUntil));
    // Too late to undo now.
    expect((await vic.json('POST', `/deletions/${automation.id}/undo`, {})).status).to.equal(404);
  });

  it('a conversation deleted from its header leaves the sidebar at once, and Undo puts it back in the list', async () => {
    const zoe = chrome.host.client.as('zoe');
    const threadId = await zoe.newThread();
    await zoe.say(threadId, 'Garden plan');
    const { page, screenshot } = await chrome.open({ user: 'zoe' });
    await page.goto(`${chrome.host.url}/#/t/${threadId}`);
    const inSidebar = page.locator(`.thread-link[href$="${threadId}"]`);
    await inSidebar.waitFor();
    await page.getByRole('button', { name: 'Delete conversation' }).click();
    const toast = page.locator('.undo-toast', { hasText: 'Deleted “' });
    await toast.waitFor();
    await inSidebar.waitFor({ state: 'detached' });
    await screenshot('chrome-undo-conversation');
    await toast.getByRole('button', { name: /^Undo: Deleted/ }).click();
    await inSidebar.waitFor();
    expect((await zoe.json('GET', `/threads/${threadId}`)).status).to.equal(200);
    expect((await zoe.json<{ deletions: Pending[] }>('GET', '/deletions')).body.deletions).to.deep.equal([]);
  });
});
