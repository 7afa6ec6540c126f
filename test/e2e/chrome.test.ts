import { expect } from 'chai';
import { PacedScriptedModel, chromeSuite, pendingApproval, type ChromeSession } from '../support/browser.js';
import { numberedWords } from '../support/numbered-words.js';

describe('The shipped chrome in headless Chromium (development host)', function () {
  this.timeout(120_000);
  let session: (ChromeSession & { errors: string[] }) | null = null;
  const model = new PacedScriptedModel(70);
  const chrome = chromeSuite(() => ({ porter: { model } }), { ignore: /status of 409/ });

  const open = async (user?: string, viewport?: { width: number; height: number }) => {
    session = await chrome.open({ ...(user ? { user } : {}), ...(viewport ? { viewport } : {}) });
    return session;
  };

  it('serves the chrome at / with hashed, compressed, long-cached assets and a strict content security policy', async () => {
    const page = await fetch(`${chrome.host.url}/`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.contain('text/html');
    expect(page.headers.get('content-security-policy')).to.contain("script-src 'self'");
    const html = await page.text();
    expect(html).to.contain('<meta name="porter-wire" content="/api/porter">');
    const script = /src="(\/assets\/chrome\.[0-9a-f]{12}\.js)"/.exec(html)?.[1];
    expect(script, 'the page names its hashed script').to.be.a('string');
    const asset = await fetch(`${chrome.host.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).to.equal(200);
    expect(asset.headers.get('cache-control')).to.contain('immutable');
    expect(asset.headers.get('content-type')).to.contain('javascript');
    expect((await fetch(`${chrome.host.url}/assets/chrome.000000000000.js`)).status).to.equal(404);
  });

  it('streams an answer into the conversation word by word, and lists the new thread by its title', async () => {
    const { page, screenshot } = await open('ada');
    await page.waitForSelector('text=Hello, ada.');
    // Record every state the answer's text passes through, as a person watching would see it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('.message.assistant .assistant-text')?.textContent ?? '';
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const words = 'tell me about the weather on the coast this weekend please';
    await page.getByLabel('Message', { exact: true }).fill(words);
    await page.keyboard.press('Enter');

    await page.waitForSelector('.assistant-text.streaming');
    await page.waitForFunction(() => (document.querySelector('.assistant-text.streaming')?.textContent ?? '').split(' ').length >= 6);
    await screenshot('chrome-streaming');
    await page.waitForFunction(
      (expected) => document.querySelector('.message.assistant .assistant-text')?.textContent === expected,
      `echo: ${words}`,
    );
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.length, `partial answers seen: ${JSON.stringify(seen)}`).to.be.greaterThan(4);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.startsWith(seen[i - 1]!), 'each state extends the last').to.equal(true);
    expect(page.url()).to.match(/#\/t\/thr_/);
    await page.waitForSelector(`.thread-link.current:has-text("${words.slice(0, 20)}")`);
    await page.waitForSelector('.assistant-text:not(.streaming)');
    await screenshot('chrome-conversation');

    // The same thread, read back from the server after a reload.
    await page.reload();
    await page.waitForSelector(`.message.assistant:has-text("echo: ${words}")`);
    expect(await page.locator('.message.user').count()).to.equal(1);
  });

  it('approves a parked call from its card, then shows the call run and the answer carry on', async () => {
    const { page, screenshot } = await open('bea');
    await page.getByLabel('Message', { exact: true }).fill('/call notes_add {"text":"buy oat milk"}');
    await page.keyboard.press('Enter');
    const card = await pendingApproval(page, 'Add the note “buy oat milk”');
    expect(await card.locator('.badge.risk-write').textContent()).to.equal('Changes data');
    await screenshot('chrome-approval');

    await card.getByRole('button', { name: 'Approve' }).click();
    const tool = page.locator('.tool[data-tool="notes_add"]');
    await page.waitForSelector('.tool[data-tool="notes_add"][data-state="output-available"]');
    await page.waitForSelector('.assistant-text:has-text("notes_add returned")');
    expect(await tool.locator('.tool-status').textContent()).to.equal('Done');
    await tool.locator('.tool-head').click();
    expect(await tool.locator('.tool-json').last().textContent()).to.contain('"added": "buy oat milk"');
    await screenshot('chrome-approved');

    const bea = chrome.host.client.as('bea');
    expect((await bea.json('GET', '/approvals')).body.approvals).to.deep.equal([]);
    const listed = await bea.say(await bea.newThread(), '/call notes_list {}');
    expect(JSON.stringify(listed.message.parts)).to.contain('buy oat milk');
  });

  it('updates a card when the call is decided elsewhere, and lets the person carry on', async () => {
    const { page } = await open('cyd');
    await page.getByLabel('Message', { exact: true }).fill('/call notes_clear {}');
    await page.keyboard.press('Enter');
    const card = page.locator('.approval-card[data-approval-state="pending"]');
    await card.waitFor();
    expect(await card.locator('.badge.risk-destructive').count()).to.equal(1);

    const cyd = chrome.host.client.as('cyd');
    const [pending] = (await cyd.json('GET', '/approvals')).body.approvals;
    expect((await cyd.json('POST', `/approvals/${pending.id}/decide`, { approve: false })).status).to.equal(200);

    // The card follows the decision and the turn carries on by itself: no Continue to click.
    await page.waitForSelector('.tool[data-tool="notes_clear"][data-state="output-denied"]');
    expect(await page.getByRole('button', { name: 'Continue' }).count()).to.equal(0);
    await page.waitForSelector('.assistant-text:has-text("denied")');
  });

  it('shows the result of an approved call once, on the original call, when the person writes on', async () => {
    const { page } = await open('jay');
    await page.getByLabel('Message', { exact: true }).fill('/call notes_add {"text":"water the plants"}');
    await page.keyboard.press('Enter');
    await page.locator('.approval-card[data-approval-state="pending"]').waitFor();
    const jay = chrome.host.client.as('jay');
    const [pending] = (await jay.json('GET', '/approvals')).body.approvals;
    await jay.json('POST', `/approvals/${pending.id}/decide`, { approve: true });
    // The turn carries on by itself and runs the approved call; the person then writes something new.
    await page.locator('.message.assistant').first().locator('.tool[data-tool="notes_add"] .tool-status:has-text("Done")').waitFor();
    // Once the answer has ended (Stop gives way to Send), the person writes something new.
    await page.getByRole('button', { name: 'Send message' }).waitFor();
    await page.getByLabel('Message', { exact: true }).fill('thanks');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.message.assistant:has-text("echo: thanks")');
    const original = page.locator('.message.assistant').first().locator('.tool[data-tool="notes_add"]');
    await original.locator('.tool-status:has-text("Done")').waitFor();
    expect(await page.locator('.tool[data-tool="notes_add"]').count(), 'shown once, on the original call').to.equal(1);
  });

  it('rejoins a turn still streaming when the thread is opened in a second tab', async () => {
    const { page, context } = await open('gil');
    const words = numberedWords('w', 40);
    // The answer waits after its fifth word until the second tab is open, however busy the machine.
    const release = model.holdNextAnswer(5);
    await page.getByLabel('Message', { exact: true }).fill(words);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.assistant-text.streaming');
    const second = await context.newPage();
    await second.goto(page.url());
    // The second tab reads the stored thread, then rejoins the live turn and watches it finish.
    await second.waitForSelector('.assistant-text.streaming');
    release();
    await second.waitForSelector(`.message.assistant .assistant-text:has-text("echo: ${words}")`);
    await page.waitForSelector(`.message.assistant .assistant-text:has-text("echo: ${words}")`);
    expect(await second.locator('.message.assistant').count()).to.equal(1);
    await second.close();
  });

  it('rejoins the turn after the page is reloaded mid-answer, and streams the rest of it in', async () => {
    const { page, screenshot } = await open('kit');
    const words = numberedWords('r', 30);
    // The answer waits after its sixth word until the page has reloaded, however busy the machine.
    const release = model.holdNextAnswer(6);
    await page.getByLabel('Message', { exact: true }).fill(`/slow 2 ${words}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.querySelector('.assistant-text.streaming')?.textContent ?? '').split(' ').length >= 4);
    const url = page.url();
    await page.reload();
    expect(page.url()).to.equal(url);
    // The reloaded page reads the stored thread, rejoins the turn and watches it carry on.
    await page.waitForSelector('.assistant-text.streaming');
    const during = (await page.locator('.assistant-text.streaming').textContent()) ?? '';
    expect(during.length, 'still streaming after the reload').to.be.lessThan(words.length);
    await screenshot('chrome-rejoined-after-reload');
    release();
    await page.waitForSelector(`.message.assistant .assistant-text:not(.streaming):has-text("${words}")`);
    expect(await page.locator('.message.assistant').count()).to.equal(1);
    expect(await page.locator('.message.user').count()).to.equal(1);
    const stored = await chrome.host.client.as('kit').json('GET', `/threads/${/#\/t\/([^/?]+)/.exec(url)![1]}`);
    expect(
      stored.body.messages
        .at(-1)
        .parts.filter((p: { type: string }) => p.type === 'text')
        .map((p: { text: string }) => p.text)
        .join(''),
    ).to.equal(words);
  });

  it('stops an answer with Escape, keeping what was said so far', async () => {
    const { page } = await open('hana');
    const words = numberedWords('v', 60);
    await page.getByLabel('Message', { exact: true }).fill(words);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.assistant-text.streaming');
    await page.waitForFunction(() => (document.querySelector('.assistant-text')?.textContent ?? '').split(' ').length > 4);
    await page.getByLabel('Message', { exact: true }).press('Escape');
    await page.getByRole('button', { name: 'Send message' }).waitFor();
    const kept = await page.locator('.message.assistant .assistant-text').textContent();
    expect(kept!.length).to.be.greaterThan(5);
    expect(kept!.length, 'the answer stopped before the end').to.be.lessThan(`echo: ${words}`.length);
  });

  it('follows the system’s dark colour scheme', async () => {
    session = await chrome.open({ user: 'ida', colorScheme: 'dark' });
    const { page, screenshot } = session;
    await page.getByLabel('Message', { exact: true }).fill('/call notes_clear {}');
    await page.keyboard.press('Enter');
    await page.locator('.approval-card[data-approval-state="pending"]').waitFor();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!, `body background ${background}`).to.be.lessThan(150);
    await screenshot('chrome-dark');
  });

  it('caps the composer at 200px and scrolls inside it; Shift+Enter adds a line, Enter sends', async () => {
    const { page, screenshot } = await open('dee');
    const field = page.getByLabel('Message', { exact: true });
    await field.click();
    const measure = () =>
      field.evaluate((el: HTMLTextAreaElement) => ({
        height: el.getBoundingClientRect().height,
        scrollHeight: el.scrollHeight,
        clientHeight: el.clientHeight,
        overflowY: getComputedStyle(el).overflowY,
      }));

    await page.keyboard.type('first line');
    const one = await measure();
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('third line');
    const three = await measure();
    expect(three.height, 'grows with its text').to.be.greaterThan(one.height + 20);
    expect(three.overflowY).to.equal('hidden');
    expect(page.url(), 'Shift+Enter did not send').to.not.match(/#\/t\//);

    for (let i = 4; i <= 30; i++) {
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type(`line ${i}`);
    }
    const capped = await measure();
    expect(capped.height).to.equal(200);
    expect(capped.overflowY).to.equal('auto');
    expect(capped.scrollHeight).to.be.greaterThan(capped.clientHeight + 200);
    await screenshot('chrome-composer-capped');

    await page.keyboard.press('Enter');
    await page.waitForSelector('.message.user:has-text("line 30")');
    expect((await measure()).height, 'shrinks back once sent').to.be.lessThan(60);
  });

  it('works at a phone’s width: the navigation is a drawer that Escape closes, returning focus', async () => {
    const { page, screenshot } = await open('eve', { width: 360, height: 740 });
    const menu = page.getByRole('button', { name: 'Open navigation' });
    await menu.waitFor();
    expect(await page.locator('.sidebar-frame').evaluate((el) => el.getBoundingClientRect().right <= 0)).to.equal(true);
    const composer = await page.locator('.composer').boundingBox();
    expect(composer!.width).to.be.at.most(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360);
    await screenshot('chrome-phone-home');

    await menu.click();
    await page.waitForFunction(() => document.querySelector('.sidebar-frame')!.getBoundingClientRect().left >= 0);
    await screenshot('chrome-phone-drawer');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('.sidebar-frame')!.getBoundingClientRect().right <= 0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Open navigation');

    await page.getByLabel('Message', { exact: true }).fill('hello from a phone');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.message.assistant:has-text("echo: hello from a phone")');
    await screenshot('chrome-phone-conversation');
  });

  it('shows focus as it moves by keyboard, and signs in and out with the demo control', async () => {
    const { page } = await open();
    await page.waitForSelector('text=Anonymous');
    await page.locator('.new-chat').focus();
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { text: el.textContent, style: getComputedStyle(el).outlineStyle };
    });
    expect(outline.text).to.contain('Approvals');
    expect(outline.style).to.not.equal('none');

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Your name').fill('fay');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="signed-in-as"]:has-text("fay")');
    expect(await page.evaluate(() => document.cookie)).to.contain('porter_demo_user=fay');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForSelector('text=Anonymous');
  });

  it('says so plainly when a conversation does not exist or is someone else’s', async () => {
    const other = await chrome.host.client.as('gus').newThread();
    const { page, screenshot } = await open('hal');
    await page.goto(`${chrome.host.url}/#/t/${other}`);
    await page.waitForSelector('text=Conversation not found');
    await screenshot('chrome-not-found');
    session!.errors.length = 0; // the 404 the page just read is the point of this test
  });
});
