import type { Middleware } from 'koa';
import { buildChrome, type ChromeAsset, type ChromeBundle } from './build-chrome.js';

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
  /** The page title. */
  readonly title?: string;
}

/**
 * Koa middleware serving the shipped chrome: the page at `path` and its hashed assets. The bundle
 * is built (once per process) before the middleware is returned, so a broken build fails at boot.
 */
export async function serveChrome(options: ChromeOptions): Promise<Middleware> {
  const bundle = await buildChrome();
  const base = normalisedPath(options.path ?? '/');
  const page = Buffer.from(pageHtml(bundle, base, options));
  const assets = new Map<string, { type: string; asset: ChromeAsset }>([
    [`${base}assets/${bundle.script.name}`, { type: 'text/javascript; charset=utf-8', asset: bundle.script }],
    [`${base}assets/${bundle.styles.name}`, { type: 'text/css; charset=utf-8', asset: bundle.styles }],
  ]);
  const pagePaths = new Set([base, base === '/' ? '/index.html' : `${base}index.html`, base.slice(0, -1) || '/']);

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const found = assets.get(ctx.path);
    if (found) {
      // Names carry the content hash, so a browser may keep them forever.
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.vary('Accept-Encoding');
      ctx.type = found.type;
      const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
      if (encoding === 'br' || encoding === 'gzip') ctx.set('Content-Encoding', encoding);
      ctx.body = Buffer.from(encoding === 'br' ? found.asset.brotli : encoding === 'gzip' ? found.asset.gzip : found.asset.body);
      return;
    }
    if (!pagePaths.has(ctx.path)) return next();
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  };
}

/**
 * Scripts and data only from this origin. Served apps (`ui: "http"`) run on their own servers, so
 * frames may load any http(s) origin; generated app trees may show remote images.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  'frame-src http: https:',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

function pageHtml(bundle: ChromeBundle, base: string, options: ChromeOptions): string {
  const title = escapeHtml(options.title ?? 'Porter');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<meta name="porter-wire" content="${escapeHtml(options.wire)}">
<meta name="porter-demo-sign-in" content="${options.demoSignIn ? 'on' : 'off'}">
<title>${title}</title>
<link rel="icon" href="${FAVICON}">
<link rel="stylesheet" href="${base}assets/${bundle.styles.name}">
<script type="module" src="${base}assets/${bundle.script.name}"></script>
</head>
<body>
<div id="root"></div>
<noscript><p style="font-family:system-ui;padding:2rem">${title} needs JavaScript to run.</p></noscript>
</body>
</html>
`;
}

/** The brand mark, inline: no extra request, nothing to serve. */
const FAVICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4f46e5"/><text x="16" y="22" font-family="system-ui,sans-serif" font-size="17" font-weight="700" fill="#fff" text-anchor="middle">P</text></svg>')}`;

function normalisedPath(path: string): string {
  const withLead = path.startsWith('/') ? path : `/${path}`;
  return withLead.endsWith('/') ? withLead : `${withLead}/`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
