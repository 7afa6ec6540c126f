import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { chromeSuite, say } from '../support/browser.js';

type Memory = { id: string; text: string; revision: number };

describe('Memories in the shipped chrome (headless Chromium)', function () {
  this.timeout(120_000);
  // The lost race is a 409 the page answers; the browser logs the failed request itself.
  const chrome = chromeSuite(undefined, { ignore: /status of 409 \(Conflict\)/ });

  it('shows "remembered" in the conversation, then the person edits, exports and forgets on the Memories page', async () => {
    const { page, screenshot } = await chrome.open({ user: 'mae' });
    await say(page, '/call memory_save {"text":"Mae grows tomatoes on her balcony"}');
    const remembered = page.locator('.memory-part[data-memory-part="saved"]');
    await remembered.waitFor();
    expect(await remembered.locator('.memory-part-text').textContent()).to.equal('Mae grows tomatoes on her balcony');
    await screenshot('chrome-memory-remembered');

    await remembered.getByRole('link', { name: 'Manage memories' }).click();
    await page.waitForSelector('.page-title:has-text("Memories")');
    await page.locator('.memory', { hasText: 'Mae grows tomatoes on her balcony' }).waitFor();
    const [saved] = (await chrome.host.client.as('mae').json<{ memories: Memory[] }>('GET', '/memories')).body.memories;
    const card = page.locator(`.memory[data-memory-id="${saved!.id}"]`);
    expect(await card.locator('.badge').textContent()).to.equal('Saved in a conversation');

    await card.getByRole('button', { name: /^Edit:/ }).click();
    await card.locator('textarea').fill('Mae grows tomatoes and basil on her balcony');
    await card.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('.memory .memory-text:has-text("Mae grows tomatoes and basil on her balcony")');

    await page.getByLabel('Something to remember').fill('Mae is vegetarian');
    await page.getByRole('button', { name: 'Remember' }).click();
    await page.waitForSelector('.memory .memory-text:has-text("Mae is vegetarian")');
    await screenshot('chrome-memories-page');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export' }).click();
    const file = await (await download).path();
    const exported = JSON.parse(await readFile(file, 'utf8')) as { memories: Memory[] };
    expect(exported.memories.map((m) => m.text).sort()).to.deep.equal(['Mae grows tomatoes and basil on her balcony', 'Mae is vegetarian']);

    await page.getByRole('button', { name: 'Forget: Mae is vegetarian' }).click();
    await page.locator('.undo-toast', { hasText: 'Deleted “Mae is vegetarian”' }).waitFor();
    await page.locator('.memory', { hasText: 'Mae is vegetarian' }).waitFor({ state: 'detached' });
    const left = (await chrome.host.client.as('mae').json<{ memories: Memory[] }>('GET', '/memories')).body.memories.map((m) => m.text);
    expect(left).to.deep.equal(['Mae grows tomatoes and basil on her balcony']);
  });

  it('an edit that lost a race says so, shows what won and keeps the draft; saving again replaces it', async () => {
    const ned = chrome.host.client.as('ned');
    const { body: memory } = await ned.json<Memory>('POST', '/memories', { text: 'Ned walks to work' });
    const { page, screenshot } = await chrome.open({ user: 'ned' });
    await page.goto(`${chrome.host.url}/#/memories`);
    const card = page.locator(`.memory[data-memory-id="${memory.id}"]`);
    await card.getByRole('button', { name: /^Edit:/ }).click();
    await card.locator('textarea').fill('Ned cycles to work');
    // Meanwhile, another tab changes it.
    expect(
      (await ned.json('PATCH', `/memories/${memory.id}`, { text: 'Ned takes the tram to work', revision: memory.revision })).status,
    ).to.equal(200);
    await card.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('text=This memory was changed meanwhile and now says “Ned takes the tram to work”.');
    expect(await card.locator('textarea').inputValue()).to.equal('Ned cycles to work');
    expect((await ned.json<Memory>('GET', `/memories/${memory.id}`)).body.text).to.equal('Ned takes the tram to work');
    await screenshot('chrome-memory-edit-conflict');

    await card.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector(`.memory[data-memory-id="${memory.id}"] .memory-text:has-text("Ned cycles to work")`);
    expect((await ned.json<Memory>('GET', `/memories/${memory.id}`)).body.text).to.equal('Ned cycles to work');
  });
});
