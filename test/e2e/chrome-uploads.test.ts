import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chromeSuite, say } from '../support/browser.js';
import { PNG, pdfSaying } from '../support/upload-samples.js';

/** Drops (or pastes) files on the composer the way the browser hands them over: a DataTransfer of Files. */
async function handOver(page: Page, how: 'drop' | 'paste', files: Array<{ name: string; type: string; base64: string }>): Promise<void> {
  await page.evaluate(
    ({ how, files }) => {
      const transfer = new DataTransfer();
      for (const file of files) {
        const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      if (how === 'paste') {
        const field = document.querySelector('textarea[aria-label="Message"]')!;
        field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
      } else {
        const form = document.querySelector('form.composer')!;
        form.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
        form.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    },
    { how, files },
  );
}

describe('Attachments in the shipped chrome: paperclip, drop and paste (headless Chromium)', function () {
  this.timeout(120_000);
  // The refused upload's 415 is the browser's console line, and expected.
  const chrome = chromeSuite(() => ({}), { ignore: /status of 415/ });

  it('attaches an image with the paperclip and a PDF by dropping it, sends them, and shows both in the conversation', async () => {
    const { page, screenshot } = await chrome.open({ user: 'ada' });
    await say(page, 'hello');
    await page.waitForSelector('.message.assistant[aria-busy="false"]');

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).click();
    await (await chooser).setFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await page.waitForSelector('.composer-file:has-text("dot.png")');
    await handOver(page, 'drop', [
      { name: 'report.pdf', type: 'application/pdf', base64: pdfSaying('Quarterly figures').toString('base64') },
    ]);
    await page.waitForSelector('.composer-file:has-text("report.pdf")');
    await screenshot('chrome-attachments-composer');

    await say(page, 'what are these?');
    const sent = page.locator('.message.user').last();
    const image = sent.locator('img[alt="dot.png"]');
    await image.waitFor();
    // The image is read back from the wire as its owner: it loads.
    await page.waitForFunction(
      () =>
        (document.querySelector('.message.user:last-of-type img[alt="dot.png"], img[alt="dot.png"]') as HTMLImageElement | null)
          ?.naturalWidth === 1,
    );
    expect(await sent.locator('a.file-chip').textContent()).to.equal('report.pdf');
    expect(await sent.locator('a.file-chip').getAttribute('href')).to.match(/^\/api\/porter\/files\/fil_/);
    await page.waitForSelector('.message.assistant[aria-busy="false"] >> nth=1');
    await screenshot('chrome-attachments-sent');

    // The thread keeps the files after a reload.
    await page.reload();
    await page.locator('img[alt="dot.png"]').waitFor();
    expect(await page.locator('.composer-files').count()).to.equal(0);
  });

  it('attaches a pasted file, and says why a refused one was not attached', async () => {
    const { page } = await chrome.open({ user: 'bo' });
    await say(page, 'hello');
    await page.waitForSelector('.message.assistant[aria-busy="false"]');
    await handOver(page, 'paste', [{ name: 'pasted.png', type: 'image/png', base64: PNG.toString('base64') }]);
    await page.waitForSelector('.composer-file:has-text("pasted.png")');
    // An executable dressed as an image: the server judges the bytes, the composer says so.
    await handOver(page, 'drop', [
      { name: 'cat.png', type: 'image/png', base64: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]).toString('base64') },
    ]);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent())
      .to.contain('cat.png')
      .and.to.contain('not accepted');
    expect(await page.locator('.composer-file:has-text("cat.png")').count()).to.equal(0);
    await say(page, 'and this one');
    await page.locator('.message.user').last().locator('img[alt="pasted.png"]').waitFor();
  });
});
