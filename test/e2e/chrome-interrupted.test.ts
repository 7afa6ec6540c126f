import { expect } from 'chai';
import { axeViolations } from '../support/axe.js';
import { chromeSuite, say } from '../support/browser.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import { containerOf } from '../../composition/porter-container.js';
import { get } from '../../composition/tokens.js';
import { THREAD_TOKENS } from '../../composition/modules/threads-tokens.js';

/** The development host's model, failing the first time it is asked to answer a `/flaky` message. */
function flakyModel(): ScriptedLanguageModel {
  const failed = new Set<string>();
  return new ScriptedLanguageModel((turn) => {
    if (!turn.text.startsWith('/flaky') || failed.has(turn.text)) return undefined;
    failed.add(turn.text);
    throw new Error('the provider is down');
  });
}

describe('An interrupted answer after a reload: shown as an error with Retry, which answers again (headless Chromium)', function () {
  this.timeout(120_000);
  const chrome = chromeSuite(() => ({ porter: { model: flakyModel() } }));

  it('shows the answer the model could not finish as not finished after a reload; Retry answers again and the error is gone for good', async () => {
    const { page, screenshot } = await chrome.open({ user: 'rhea' });
    await page.waitForSelector('text=Hello, rhea.');
    await say(page, '/flaky water the ferns');
    const note = page.locator('.message.assistant .message-error');
    await note.waitFor();
    await page.reload();
    await note.waitFor();
    expect(await note.textContent()).to.contain('The model failed before finishing this answer.');
    await screenshot('chrome-interrupted-after-reload');
    await note.getByRole('button', { name: 'Retry' }).click();
    await page.waitForSelector('text=echo: /flaky water the ferns');
    expect(await page.locator('.message-error').count()).to.equal(0);
    await page.reload();
    await page.waitForSelector('text=echo: /flaky water the ferns');
    expect(await page.locator('.message-error').count(), 'the stored thread no longer marks it').to.equal(0);
  });

  it("marks the person's message an instance left unanswered when it died; Retry answers it", async () => {
    const { page, screenshot } = await chrome.open({ user: 'sol' });
    await page.waitForSelector('text=Hello, sol.');
    await say(page, 'first things first');
    await page.waitForSelector('text=echo: first things first');
    const threadId = /thr_[A-Za-z0-9_-]+/.exec(page.url())?.[0];
    expect(threadId, 'the thread in the address').to.be.a('string');
    // What an instance that died right after storing the next message left: its lapsed lease and the message.
    const threads = get(containerOf(chrome.host.porter), THREAD_TOKENS.ThreadBook);
    const loaded = (await threads.find(threadId!))!;
    const then = new Date(Date.now() - 60_000).toISOString();
    await threads.swap(loaded, loaded.thread.startTurn('trn_deadinstance01', then, 1_000));
    await threads.putMessage(threadId!, { id: 'msg_lostmessage01', role: 'user', parts: [{ type: 'text', text: 'and then this' }] });

    await page.reload();
    const note = page.locator('.message.user .message-error');
    await note.waitFor();
    expect(await note.textContent()).to.contain('stopped before it finished');
    expect(await axeViolations(page)).to.deep.equal([]);
    await screenshot('chrome-interrupted-unanswered');
    await note.getByRole('button', { name: 'Retry' }).click();
    await page.waitForSelector('text=echo: and then this');
    expect(await page.locator('.message-error').count()).to.equal(0);
    await page.reload();
    await page.waitForSelector('text=echo: and then this');
    expect(await page.locator('.message-error').count()).to.equal(0);
  });
});
