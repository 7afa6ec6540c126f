import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, needsChromium } from '../support/browser.js';
import { chatCompletionsServer, scriptedCompletions, type ChatCompletionsServer } from '../support/chat-completions-server.js';
import { freePort } from '../support/http-server.js';
import { packedPackage, startHost, stopHost, succeed } from '../support/packed-package.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'a-secret-for-the-nextjs-quickstart-0123456789';

/** One file of the quickstart, as README.md gives it. */
interface QuickstartFile {
  readonly path: string;
  readonly body: string;
}

/**
 * The README's quickstart, between `<!-- quickstart:start -->` and `<!-- quickstart:end -->`. The
 * convention: each file is a fenced block whose info string names it, ```ts title="app/page.tsx",
 * written over what create-next-app wrote there. Blocks without a title (the install command) are
 * prose for people.
 */
function quickstartFiles(): { files: QuickstartFile[]; install: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('<!-- quickstart:start -->');
  const end = readme.indexOf('<!-- quickstart:end -->');
  expect(start, 'README.md has the quickstart markers').to.be.greaterThan(-1);
  const section = readme.slice(start, end);
  const files = [...section.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)].map(([, path, body]) => ({ path: path!, body: body! }));
  const install = /^npm install .*$/m.exec(section)?.[0] ?? '';
  return { files, install };
}

describe('the README quickstart for Next.js (the packed package in a fresh create-next-app: next build, next start, Chromium)', function () {
  this.timeout(15 * 60_000);
  needsChromium();
  let work: string;
  let app: string;
  let model: ChatCompletionsServer;
  let server: ChildProcess | undefined;
  let serverOutput: () => string = () => '';
  let base: string;
  let browser: Browser;
  let buildOutput: string;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    model = await chatCompletionsServer(scriptedCompletions);
    work = mkdtempSync(join(tmpdir(), 'porter-next-quickstart-'));
    const { tarball } = await packedPackage();
    // The project a team starts from: create-next-app's defaults (TypeScript, the App Router,
    // Tailwind, ESLint), --empty for a page without web fonts (the build would fetch them).
    await succeed(
      'npx',
      ['--yes', '--prefer-offline', 'create-next-app@latest', 'app', '--yes', '--empty', '--use-npm', '--disable-git', '--skip-install'],
      work,
      { CI: '1', NEXT_TELEMETRY_DISABLED: '1' },
    );
    app = join(work, 'app');
    const { files, install } = quickstartFiles();
    // What the README tells people to install, with the model provider this test points at its own server.
    for (const name of ['porter-runtime', 'ai', '@ai-sdk/react', 'zod']) expect(install.split(' '), install).to.include(name);
    await succeed(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        tarball,
        'ai@latest',
        '@ai-sdk/react@latest',
        'zod',
        '@ai-sdk/openai-compatible',
      ],
      app,
    );
    expect(files.map((file) => file.path)).to.include.members(['next.config.ts', 'app/api/porter/[...porter]/route.ts', 'app/page.tsx']);
    // The README's next.config.ts turns Cache Components on, as create-next-app does.
    expect(files.find((file) => file.path === 'next.config.ts')?.body).to.match(/cacheComponents: true/);
    for (const file of files) {
      const target = join(app, file.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.body);
    }
    // The build has no secret, no model and no database: nothing of Porter may run while it builds.
    const buildEnv: NodeJS.ProcessEnv = { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };
    for (const name of Object.keys(process.env)) if (name.startsWith('PORTER_')) buildEnv[name] = undefined;
    buildOutput = await succeed(join(app, 'node_modules', '.bin', 'next'), ['build'], app, buildEnv);

    const port = await freePort();
    const started = await startHost(
      join(app, 'node_modules', '.bin', 'next'),
      ['start', '-p', String(port), '-H', '127.0.0.1'],
      app,
      {
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        PORTER_SECRET: SECRET,
        PORTER_MODEL_URL: model.url,
        PORTER_MODEL: 'scripted',
      },
      /Ready in/,
    );
    server = started.child;
    serverOutput = started.output;
    base = `http://127.0.0.1:${port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    if (server) await stopHost(server);
    await model?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(`next start said:\n${serverOutput().slice(-4000)}`);
    const errors = pageErrors.splice(0);
    if (errors.length) throw new Error(`the page logged errors: ${JSON.stringify(errors)}`);
  });

  /** A fresh browser profile on the app, signed in through the quickstart's stand-in cookie when `user` is given. */
  async function open(user?: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext();
    contexts.push(context);
    if (user) await context.addCookies([{ name: 'user', value: user, url: base }]);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      // A failed request is reported below with its address.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) pageErrors.push(message.text());
    });
    page.on('response', (response) => {
      // The empty template ships no favicon; every other request of the page must succeed.
      if (response.status() >= 400 && new URL(response.url()).pathname !== '/favicon.ico')
        pageErrors.push(`${response.request().method()} ${response.url()} answered ${response.status()}`);
    });
    await page.goto(base);
    return { context, page };
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.getByPlaceholder('Ask the agent').fill(text);
    // Playwright waits for the button to be enabled: the thread is ready and no turn is running.
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it('builds with Cache Components on and without PORTER_SECRET: the route is server-rendered on demand', () => {
    expect(buildOutput).to.match(/Cache Components enabled/);
    expect(buildOutput).to.match(/ƒ \/api\/porter\/\[\.\.\.porter\]/);
  });

  it('a turn, an approval of the write tool and a resume after a reload, for a person signed in through the stand-in', async () => {
    const { context, page } = await open('ada');
    await send(page, 'hello');
    await page.getByText('echo: hello').waitFor();

    await send(page, '/call add_note {"text":"milk"}');
    await page.getByRole('button', { name: 'Approve' }).click();
    // The tool ran (its result goes back to the model) and the agent's answer follows.
    await page.getByText(/done: .*"added":"milk"/).waitFor();
    expect(model.requests.at(-1)!.messages.at(-1).role).to.equal('tool');

    // The thread is in the address: a reload resumes the conversation as it was.
    await page.waitForURL(/[?&]thread=/);
    const thread = new URL(page.url()).searchParams.get('thread');
    await page.reload();
    await page.getByText('echo: hello').waitFor();
    await page.getByText(/done: .*"added":"milk"/).waitFor();

    // The thread is Ada's: her session lists it, someone else's does not.
    const mine = (await (await context.request.get(`${base}/api/porter/threads`)).json()) as { threads: Array<{ id: string }> };
    expect(mine.threads.map((t) => t.id)).to.include(thread);
    const { context: stranger } = await open();
    const theirs = (await (await stranger.request.get(`${base}/api/porter/threads`)).json()) as { threads: Array<{ id: string }> };
    expect(theirs.threads.map((t) => t.id)).not.to.include(thread);
  });
});
