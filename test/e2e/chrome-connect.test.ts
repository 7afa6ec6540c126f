import { expect } from 'chai';
import { brokerConsent, chromeSuite } from '../support/browser.js';
import { suiteNangoBroker } from '../support/nango-broker-server.js';
import { githubWhoami } from '../support/github-tools.js';

const NANGO_KEY = 'nango-secret-for-the-connect-offer';

describe('The connect offer in the shipped chrome (headless Chromium)', function () {
  this.timeout(120_000);
  const nango = suiteNangoBroker(NANGO_KEY);
  const chrome = chromeSuite(async () => ({ porter: { tools: [githubWhoami], connections: await nango() } }));

  it('offers to connect a missing account where the tool failed, connects it through the broker, and the tool then runs', async () => {
    const session = await chrome.open({ user: 'noa' });
    const { page, screenshot } = session;
    await page.waitForSelector('text=Hello, noa.');
    await page.getByLabel('Message', { exact: true }).fill('/call github_whoami {}');
    await page.keyboard.press('Enter');

    const offer = page.locator('.connect-offer[data-toolkit="github"]');
    await offer.waitFor();
    expect(await offer.getAttribute('data-connect-state')).to.equal('offered');
    expect(await offer.textContent())
      .to.contain('github_whoami')
      .and.contain('github');
    await page.locator('.tool[data-tool="github_whoami"][data-state="output-error"]').waitFor();
    await screenshot('chrome-connect-offer');

    const consent = await brokerConsent(session, offer.getByRole('button', { name: 'Connect github' }));
    expect(await consent.textContent('body')).to.contain('Done');
    await consent.close();

    await page.locator('.connect-offer[data-connect-state="active"]').waitFor();
    expect(await offer.locator('[role="status"]').textContent()).to.contain('github is connected');
    await screenshot('chrome-connect-connected');
    const connections = (await chrome.host.client.as('noa').json('GET', '/connections')).body.connections;
    expect(connections.map((c: { toolkit: string; status: string }) => [c.toolkit, c.status])).to.deep.equal([['github', 'active']]);

    // Asked again, the tool runs through the broker.
    await page.getByLabel('Message', { exact: true }).fill('/call github_whoami {}');
    await page.keyboard.press('Enter');
    await page.locator('.tool[data-tool="github_whoami"][data-state="output-available"]').waitFor();

    // The offer is kept with the thread: reloaded, it knows the account is connected now.
    await page.reload();
    await page.locator('.connect-offer[data-connect-state="active"]').waitFor();
    expect(await page.getByRole('button', { name: 'Connect github' }).count()).to.equal(0);
  });
});
