import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import { TITLE_INSTRUCTIONS } from '../../domain/threads/thread-title.js';
import { devHost, type DevHostFixture, type DevHostOptions } from './dev-host-fixture.js';

/**
 * Debian's Chromium (`.ci/run` installs it); playwright-core never downloads a browser of its own.
 * `test/support/test-services.ts` finds it once per run (`PORTER_CHROMIUM`, else `chromium` on the
 * PATH) and writes the answer to `PORTER_CHROMIUM`.
 */
export function chromiumPath(): string {
  const path = process.env.PORTER_CHROMIUM;
  if (!path || !existsSync(path))
    throw new Error(`Chromium is not installed${path ? ` at ${path}` : ''}: apt-get install -y chromium (or set PORTER_CHROMIUM)`);
  return path;
}

/** Skips the enclosing suite when the run has no Chromium (never in CI: the run fails first). Call it first in a `describe`. */
export function needsChromium(): void {
  before(function () {
    if (!process.env.PORTER_CHROMIUM) this.skip();
  });
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ARGS, headless: true });
}

/** A browser suite's development host and headless Chromium, and its pages. */
export interface ChromeSuite {
  readonly host: DevHostFixture;
  readonly browser: Browser;
  /** Opens the host's chrome in a fresh profile whose page errors fail the test (see `checkedPages`). */
  open(options?: ChromeOptions): Promise<ChromeSession & { errors: string[] }>;
  /** The same on another origin (a second host, a host's own mount). */
  openAt(baseUrl: string, options?: ChromeOptions): Promise<ChromeSession & { errors: string[] }>;
}

/**
 * One development host and one headless Chromium for a whole browser suite: the suite is skipped
 * without Chromium; both start before its first test (the host with what `options` answers, which
 * may first start what the host needs, or skip the suite) and close after its last. Pages opened
 * through it are checked after each test; `ignore` names page errors the suite expects. Call it
 * first in a `describe`: `const chrome = chromeSuite(() => ({ porter: { model } }))`.
 */
export function chromeSuite(
  options: (this: Mocha.Context) => DevHostOptions | Promise<DevHostOptions> = () => ({}),
  checks: { ignore?: RegExp } = {},
): ChromeSuite {
  needsChromium();
  let host: DevHostFixture | undefined;
  let browser: Browser | undefined;
  before(async function () {
    host = await devHost(await options.call(this));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await host?.close();
  });
  const pages = checkedPages(checks);
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the chrome suite has not started (use it inside a hook or a test)');
    return value;
  };
  return {
    get host() {
      return started(host);
    },
    get browser() {
      return started(browser);
    },
    open: (options) => pages.open(started(browser), started(host).url, options),
    openAt: (baseUrl, options) => pages.open(started(browser), baseUrl, options),
  };
}

/** The pending approval card in `scope` once it shows, checked to preview `preview` (what the person is asked to allow). */
export async function pendingApproval(scope: Page | Locator, preview: string): Promise<Locator> {
  const card = scope.locator('.approval-card[data-approval-state="pending"]');
  await card.waitFor();
  expect(await card.locator('.approval-preview').textContent()).to.equal(preview);
  return card;
}

/** Clicks `connect` and answers the broker's consent page it opens in a window of its own, loaded. */
export async function brokerConsent(session: ChromeSession, connect: Locator): Promise<Page> {
  const popup = session.context.waitForEvent('page');
  await connect.click();
  const consent = await popup;
  // The window opens blank, then is sent to the broker's page.
  await consent.waitForURL((url) => url.href !== 'about:blank');
  await consent.waitForLoadState();
  return consent;
}

/** Asks to connect `toolkit` from the Connections page of `baseUrl`'s chrome: the broker's consent page, loaded. */
export async function connectFromConnectionsPage(session: ChromeSession, baseUrl: string, toolkit: string): Promise<Page> {
  await session.page.goto(`${baseUrl}/#/connections`);
  // The broker's toolkits to pick from, once it has said which.
  await session.page.locator(`select#toolkit option[value="${toolkit}"]`).waitFor({ state: 'attached' });
  await session.page.getByLabel('Connect an account').selectOption(toolkit);
  return brokerConsent(session, session.page.getByRole('button', { name: 'Connect' }));
}

/** Sends a message from the composer of the page as it is. */
export async function say(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.keyboard.press('Enter');
}

/** Where the browser tests leave a PNG of each state they check: ignored by git, so a run leaves the tree clean. */
export const SCREENSHOTS = fileURLToPath(new URL('../e2e/tmp/screenshots/', import.meta.url));

/** How a fresh profile opens the chrome: signed in as `user` (anonymous without), at a viewport, in a colour scheme. */
export interface ChromeOptions {
  readonly user?: string;
  readonly viewport?: { width: number; height: number };
  readonly colorScheme?: 'light' | 'dark';
}

export interface ChromeSession {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Saves a PNG of the page under test/e2e/tmp/screenshots (ignored by git, overwritten each run). */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A fresh browser profile on the development host's chrome, signed in as `user` through the demo
 * cookie (anonymous without). Page errors fail loudly: they are collected in `errors`.
 */
export async function openChrome(
  browser: Browser,
  baseUrl: string,
  options: ChromeOptions = {},
): Promise<ChromeSession & { errors: string[] }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    deviceScaleFactor: 1,
  });
  // A cap, not a pace (a wait that holds returns at once): on a busy machine Chromium paints late.
  context.setDefaultTimeout(60_000);
  if (options.user) await context.addCookies([{ name: 'porter_demo_user', value: options.user, url: baseUrl }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(baseUrl);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    page,
    errors,
    async screenshot(name) {
      const path = `${SCREENSHOTS}${name}.png`;
      await page.screenshot({ path });
      return path;
    },
    close: () => context.close(),
  };
}

/**
 * The development host's scripted model, slowed to a word every `delayMs`, so a test can tell an
 * answer streamed into the page from one painted at once. Asked to write an app document (the apps
 * family's model generator), it streams `appDocument` as JSON a few characters at a time, so the
 * view fills in node by node; asked to edit one, it answers with the document it was given.
 */
export class PacedScriptedModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'porter-test';
  readonly modelId = 'paced-scripted';
  readonly supportedUrls = {};
  private readonly inner = new ScriptedLanguageModel();
  private held: { afterWords: number; released: Promise<void> } | null = null;

  constructor(
    private readonly delayMs: number,
    private readonly appDocument: unknown = GARDEN_PLANNER,
  ) {}

  /**
   * Holds the next answer (never a title) after `afterWords` words until the returned function is
   * called, so a test can reload or open a tab while the turn is certainly still streaming, however
   * slow the machine.
   */
  holdNextAnswer(afterWords: number): () => void {
    let release!: () => void;
    this.held = { afterWords, released: new Promise<void>((resolve) => (release = resolve)) };
    return release;
  }

  async doGenerate(): Promise<never> {
    throw new Error('streaming only');
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const system = options.prompt
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    if (system.includes('app documents')) return { stream: this.writeDocument(options) };
    const { stream } = await this.inner.doStream(options);
    const delay = this.delayMs;
    const held = system === TITLE_INSTRUCTIONS ? null : this.held;
    if (held) this.held = null;
    let words = 0;
    return {
      stream: stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          async transform(part, controller) {
            if (part.type === 'text-delta') {
              if (held && words++ === held.afterWords) await held.released;
              await sleep(delay);
            }
            controller.enqueue(part);
          },
        }),
      ),
    };
  }

  private writeDocument(options: LanguageModelV4CallOptions): ReadableStream<LanguageModelV4StreamPart> {
    const request = options.prompt
      .filter((m) => m.role === 'user')
      .flatMap((m) => m.content.map((c) => (c.type === 'text' ? c.text : '')))
      .join('');
    const current = /Here is the current app:\n([\s\S]*?)\n\nChange it/.exec(request)?.[1];
    const text = current ?? JSON.stringify(this.appDocument);
    const delay = this.delayMs;
    return new ReadableStream<LanguageModelV4StreamPart>({
      async start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'text-start', id: 'doc' });
        for (let at = 0; at < text.length; at += 24) {
          controller.enqueue({ type: 'text-delta', id: 'doc', delta: text.slice(at, at + 24) });
          await sleep(delay / 2);
        }
        controller.enqueue({ type: 'text-end', id: 'doc' });
        const usage = {
          inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        };
        controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage });
        controller.close();
      },
    });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small app with every kind of node a person notices: heading, text, fields, a bound list. */
export const GARDEN_PLANNER = {
  format: 1,
  title: 'Garden planner',
  ui: 'tree',
  scope: 'owner',
  root: 'root',
  nodes: {
    root: { type: 'stack', children: ['title', 'intro', 'plant-card', 'beds'] },
    title: { type: 'heading', props: { text: 'Garden planner', level: 1 } },
    intro: { type: 'text', props: { text: 'Plan what to sow and where.' } },
    'plant-card': { type: 'card', props: { title: 'Add a plant' }, children: ['plant-row'] },
    'plant-row': { type: 'row', children: ['plant-name', 'plant-bed', 'plant-add'] },
    'plant-name': { type: 'input', props: { name: 'name', label: 'Plant', placeholder: 'Tomatoes' } },
    'plant-bed': { type: 'select', props: { name: 'bed', label: 'Bed', options: 'North,South,Greenhouse' } },
    'plant-add': { type: 'button', props: { label: 'Add plant' }, action: 'add-plant' },
    beds: { type: 'list', bind: 'plants', props: { empty: 'No plants yet' }, action: 'remove-plant' },
  },
  data: { plants: { collection: 'plants' } },
  actions: { 'add-plant': { kind: 'put-record', collection: 'plants' }, 'remove-plant': { kind: 'delete-record', collection: 'plants' } },
  server: null,
  egress: null,
};

/** Where `page` is and the start of the text it shows, for a failure's report. */
async function pageSummary(page: Page): Promise<string> {
  const text = await page.evaluate(() => document.body.innerText).catch((error: unknown) => `(unreadable: ${String(error)})`);
  return `${page.url()}\n${text.replace(/\s+/g, ' ').slice(0, 1_500)}`;
}

/** Adds `summary` to `error`'s message and to the head of its stack, which is what mocha prints. */
function withSummary(error: Error, summary: string): void {
  error.message = `${error.message}\n${summary}`;
  const stack = error.stack ?? '';
  const frames = stack.search(/\n\s+at\s/);
  error.stack = frames === -1 ? `${stack}\n${summary}` : `${stack.slice(0, frames)}\n${summary}${stack.slice(frames)}`;
}

/**
 * The pages a suite opens: each is closed after its test, and a page that logged errors fails the
 * test. Call it at the top of a `describe`.
 */
export function checkedPages(options: { ignore?: RegExp } = {}): { open: typeof openChrome } {
  let current: (ChromeSession & { errors: string[] }) | null = null;
  afterEach(async function () {
    if (!current) return;
    // A failed wait names what it waited for, not what the page showed instead: say that too.
    // The summary joins the failure's own message, which the run prints again in its closing list.
    const failed = this.currentTest?.state === 'failed' ? this.currentTest : null;
    if (failed) {
      const summary = `the page at the failure: ${await pageSummary(current.page)}`;
      console.error(summary);
      if (failed.err) withSummary(failed.err, summary);
    }
    const errors = current.errors.filter((error) => !options.ignore?.test(error));
    await current.close();
    current = null;
    if (errors.length) throw new Error(`the page logged errors: ${JSON.stringify(errors)}`);
  });
  return {
    async open(...args: Parameters<typeof openChrome>) {
      current = await openChrome(...args);
      return current;
    },
  };
}
