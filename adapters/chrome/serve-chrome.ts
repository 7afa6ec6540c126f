import type { IncomingMessage, ServerResponse } from 'node:http';
import Negotiator from 'negotiator';
import { loadChrome } from './chrome-bundle.js';
import { chromePage } from './chrome-page.js';
import { createHash } from 'node:crypto';
import { THEME_SCRIPT } from './theme-script.js';
import { defined } from '../../domain/defined.js';

export interface ChromeOptions {
  /** Where the wire is mounted, e.g. `/api/porter`; the client calls it on the same origin. */
  readonly wire: string;
  /** Where the chrome itself is served; `/` by default. Its assets live under `<path>assets/`. */
  readonly path?: string;
  /**
   * Show the "signed in as" control that sets the development host's `porter_demo_user` cookie.
   * Only for the development host: a real host signs people in itself.
   */
  readonly demoSignIn?: boolean;
  /** The assistant's name: the page title, the brand in the sidebar and the composer's "Message …". Default `Porter`. */
  readonly title?: string;
  /** The brand mark: an https URL or a path on this site (a square image). Default: the title's initial. */
  readonly logoUrl?: string;
  /** The accent colour, `#rgb` or `#rrggbb`; buttons, links and focus follow it in both colour schemes. */
  readonly accentColor?: string;
  /**
   * What the home screen offers to try (at most 8). Default: a greeting and the host's own tools
   * (`GET /tools`, by their descriptions).
   */
  readonly suggestions?: ReadonlyArray<ChromeSuggestion>;
}

/** One thing the home screen offers to try: a short label, and the message it sends. */
export interface ChromeSuggestion {
  readonly label: string;
  readonly text: string;
}

/** What a Koa context offers the chrome; any Koa application's context has it. */
export interface ChromeKoaContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  readonly path: string;
  respond?: boolean;
}

/**
 * The shipped chrome, mounted the way the host serves: called directly it is Koa middleware
 * (`app.use(chrome)`), `handle` serves Node `http`, Express and Connect, `fetch` serves Web-standard
 * hosts (Next.js route handlers, Hono, Bun, Deno).
 */
export interface Chrome {
  (ctx: ChromeKoaContext, next: () => Promise<unknown>): Promise<unknown>;
  /** Koa middleware: answers the chrome's paths, passes the rest to `next()`. */
  readonly koa: (ctx: ChromeKoaContext, next: () => Promise<unknown>) => Promise<unknown>;
  /** Node `http` / Express / Connect: answers the chrome's paths, calls `next()` for the rest (404 without one). */
  readonly handle: (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;
  /** Web-standard: the chrome's answer, or a 404 for a path that is not the chrome's. */
  readonly fetch: (request: Request) => Promise<Response>;
}

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | null;
}

/**
 * The shipped chrome: its page at `path` and its hashed assets. The bundle is loaded (prebuilt in
 * the package, bundled in memory in a source checkout) before this resolves, so a broken bundle
 * fails at boot.
 */
export async function serveChrome(options: ChromeOptions): Promise<Chrome> {
  checkedOptions(options);
  const bundle = await loadChrome();
  const base = normalisedPath(options.path ?? '/');
  const page = Buffer.from(chromePage(bundle, base, options));
  const assets = new Map([
    [`${base}assets/${bundle.script.name}`, { type: 'text/javascript; charset=utf-8', asset: bundle.script }],
    [`${base}assets/${bundle.styles.name}`, { type: 'text/css; charset=utf-8', asset: bundle.styles }],
  ]);
  const pagePaths = new Set([base, base === '/' ? '/index.html' : `${base}index.html`, base.slice(0, -1) || '/']);

  const answer = (method: string, path: string, acceptEncoding: string | undefined): Answer | null => {
    if (method !== 'GET' && method !== 'HEAD') return null;
    const found = assets.get(path);
    if (found) {
      const encoding = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }).encodings(['br', 'gzip', 'identity'])[0];
      const compressed = encoding === 'br' || encoding === 'gzip';
      return {
        status: 200,
        headers: {
          'content-type': found.type,
          // Names carry the content hash, so a browser may keep them forever.
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
          vary: 'Accept-Encoding',
          ...defined({ 'content-encoding': compressed ? encoding : undefined }),
        },
        body: encoding === 'br' ? found.asset.brotli : encoding === 'gzip' ? found.asset.gzip : found.asset.body,
      };
    }
    if (!pagePaths.has(path)) return null;
    return {
      status: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'content-security-policy': CONTENT_SECURITY_POLICY,
      },
      body: page,
    };
  };

  const write = (res: ServerResponse, method: string, found: Answer) => {
    res.writeHead(found.status, { ...found.headers, 'content-length': String(found.body?.byteLength ?? 0) });
    res.end(method === 'HEAD' ? undefined : found.body);
  };

  const koa = async (ctx: ChromeKoaContext, next: () => Promise<unknown>) => {
    const found = answer(ctx.method, ctx.path, headerOf(ctx.req, 'accept-encoding'));
    if (!found) return next();
    ctx.respond = false;
    write(ctx.res, ctx.method, found);
  };
  const handle = (req: IncomingMessage, res: ServerResponse, next?: () => void) => {
    const found = answer(req.method ?? 'GET', pathOf(req.url ?? '/'), headerOf(req, 'accept-encoding'));
    if (found) write(res, req.method ?? 'GET', found);
    else if (next) next();
    else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found');
    }
  };
  const fetch = async (request: Request) => {
    const found = answer(request.method, pathOf(request.url), request.headers.get('accept-encoding') ?? undefined);
    if (!found) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    return new Response(request.method === 'HEAD' || !found.body ? null : (found.body as Uint8Array<ArrayBuffer>), {
      status: found.status,
      headers: found.headers,
    });
  };
  return Object.assign(koa, { koa, handle, fetch });
}

/**
 * Scripts and data only from this origin. Served apps (`ui: "http"`) run on their own servers, so
 * frames may load any http(s) origin; generated app trees may show remote images.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // The theme's first script runs inline, before paint; only its exact text is allowed.
  `script-src 'self' 'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  'frame-src http: https:',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The path of a request target or absolute URL, undecoded (asset names are plain ASCII). */
function pathOf(target: string): string {
  return URL.canParse(target, 'http://chrome.invalid') ? new URL(target, 'http://chrome.invalid').pathname : '';
}

function normalisedPath(path: string): string {
  const withLead = path.startsWith('/') ? path : `/${path}`;
  return withLead.endsWith('/') ? withLead : `${withLead}/`;
}

/** Refuses options the page could not show safely, naming the option; before anything is built. */
function checkedOptions(options: ChromeOptions): void {
  const refuse = (option: string, rule: string) => {
    throw new TypeError(`serveChrome: ${option} ${rule}`);
  };
  if (typeof options?.wire !== 'string' || !options.wire) refuse('wire', 'must be where the wire is mounted, e.g. "/api/porter"');
  if (options.title !== undefined && (typeof options.title !== 'string' || !options.title.trim() || options.title.length > 100))
    refuse('title', 'must be 1 to 100 characters');
  if (options.logoUrl !== undefined && !/^(https:\/\/[^\s"'<>]+|\/(?!\/)[^\s"'<>]*)$/.test(String(options.logoUrl)))
    refuse('logoUrl', 'must be an https URL or a path on this site');
  if (options.accentColor !== undefined && !/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(String(options.accentColor)))
    refuse('accentColor', 'must be a hex colour, #rgb or #rrggbb');
  if (options.suggestions !== undefined) {
    if (!Array.isArray(options.suggestions) || options.suggestions.length > 8) refuse('suggestions', 'must be a list of at most 8');
    for (const s of options.suggestions) {
      if (typeof s?.label !== 'string' || !s.label.trim() || s.label.length > 60)
        refuse('suggestions', 'labels must be 1 to 60 characters');
      if (typeof s?.text !== 'string' || !s.text.trim() || s.text.length > 2000)
        refuse('suggestions', 'texts must be 1 to 2000 characters');
    }
  }
}
