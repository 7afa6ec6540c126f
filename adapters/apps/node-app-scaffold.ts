import type { AppDocument } from '../../domain/apps/app-document.js';
import { safeUrl } from '../../domain/apps/safe-url.js';
import type { AppScaffold } from '../../ports/app-scaffold.js';
import { inlineServedPageScript, SERVED_PAGE_GLOBAL } from './served-page-script.js';
import { SERVED_PAGE_STYLE } from './served-page-style.js';
import { defined } from '../../domain/defined.js';

/** The served page's script: the runtime's bundle, started with the app's tree the page holds. */
const pageScript = () =>
  inlineServedPageScript(`${SERVED_PAGE_GLOBAL}.startServedPage(JSON.parse(document.getElementById('porter-app').textContent));`);

/** A file of a served app, at an absolute path under `/app`. */
export interface ScaffoldFile {
  readonly path: string;
  readonly content: string;
  readonly mode?: number;
}

/**
 * The files a served app boots from: the document as `/app/app.json`, the app's own server files,
 * a `package.json` marking them CommonJS (unless the app brings one), and — unless the app brings
 * its own `server.js` — Porter's static server, which renders the tree
 * at `/` and answers `POST /fn/<name>` from `/app/functions/<name>.js` (each module exports an
 * async function of the JSON body). It listens on `$PORT` and loads every function at boot, so a
 * broken function stops the server from listening instead of failing later.
 */
export function scaffold(document: AppDocument): ScaffoldFile[] {
  const own = document.server?.files ?? {};
  const files: ScaffoldFile[] = [{ path: '/app/app.json', content: JSON.stringify({ ...document, ui: 'http' }) }];
  if (!('server.js' in own)) files.push({ path: '/app/server.js', content: staticServer() });
  // Server code is CommonJS; without its own package.json the nearest one up the tree decides, and
  // a host whose package.json says "type": "module" would make `require` fail at boot.
  if (!('package.json' in own)) files.push({ path: '/app/package.json', content: PACKAGE_JSON });
  for (const [path, content] of Object.entries(own)) {
    files.push({ path: `/app/${path}`, content, ...defined({ mode: path === 'start.sh' || path.endsWith('.sh') ? 0o755 : undefined }) });
  }
  return files;
}

export const PACKAGE_JSON = `${JSON.stringify({ private: true, type: 'commonjs' }, null, 2)}\n`;

let server: string | null = null;

/** Porter's static app server: plain Node, no dependencies (CommonJS, as `node server.js` runs it). */
export function staticServer(): string {
  server ??= staticServerText(pageScript());
  return server;
}

const staticServerText = (PAGE_SCRIPT: string) => `'use strict';
// Porter's static app server: renders app.json at /, answers POST /fn/<name> from functions/<name>.js.
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');

const app = JSON.parse(fs.readFileSync(path.join(__dirname, 'app.json'), 'utf8'));
const FN = /^\\/fn\\/([A-Za-z][A-Za-z0-9_-]{0,63})$/;
const functions = {};
for (const action of Object.values(app.actions || {})) {
  const match = action.kind === 'call' ? /^fn:(.+)$/.exec(action.target) : null;
  if (!match) continue;
  const file = path.join(__dirname, 'functions', match[1] + '.js');
  if (fs.existsSync(file)) functions[match[1]] = require(file);
}

const STYLE = ${JSON.stringify(SERVED_PAGE_STYLE)};
// The page's own script: it draws the tree live and reaches the app's data through the frame
// (adapters/apps/served-page-runtime.ts, bundled by served-page-script.ts).
const PAGE_SCRIPT = ${JSON.stringify(PAGE_SCRIPT)};
// Links and images by the rule the chrome's renderer draws them with (domain/apps/safe-url.ts).
const safeUrl = ${safeUrl.toString()};
const esc = (value) => String(value == null ? '' : value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
function render(id, depth) {
  const node = app.nodes[id];
  if (!node || depth > 64) return '';
  const p = node.props || {};
  const kids = (node.children || []).map((child) => render(child, depth + 1)).join('');
  switch (node.type) {
    case 'heading': return '<h2>' + esc(p.text) + '</h2>' + kids;
    case 'text': return '<p>' + esc(p.text) + '</p>' + kids;
    case 'button': return '<button data-action="' + esc(node.action) + '">' + esc(p.label || 'OK') + '</button>';
    case 'input': return '<input placeholder="' + esc(p.placeholder) + '">';
    case 'link': {
      const href = safeUrl(typeof p.href === 'string' ? p.href : p.url, false);
      return href ? '<a href="' + esc(href) + '" rel="noopener noreferrer">' + esc(p.text || href) + '</a>' : '<span>' + esc(p.text) + '</span>';
    }
    case 'image': {
      const src = safeUrl(p.src, true);
      return src ? '<img src="' + esc(src) + '" alt="' + esc(p.alt) + '" loading="lazy">' : '<div>' + esc(p.alt || 'Image') + '</div>';
    }
    case 'divider': return '<hr>';
    default: return '<div class="' + esc(node.type) + '">' + (p.title ? '<h3>' + esc(p.title) + '</h3>' : '') + kids + '</div>';
  }
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://app');
  if (req.method === 'GET' && url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
        '<meta name="color-scheme" content="light dark"><title>' + esc(app.title) + '</title><style>' + STYLE + '</style>' +
        '<main id="app" aria-busy="true"><h1 class="visually-hidden">' + esc(app.title) + '</h1>' + render(app.root, 0) + '</main>' +
        // The app's tree as data for the page's script; "<" escaped so no text in it can close the tag.
        '<script type="application/json" id="porter-app">' + JSON.stringify(app).replace(/</g, '\\\\u003c') + '</script>' +
        '<script>' + PAGE_SCRIPT + '</script></html>',
    );
    return;
  }
  if (req.method === 'GET' && url.pathname === '/health') return send(res, 200, { ok: true });
  const match = FN.exec(url.pathname);
  if (req.method !== 'POST' || !match) return send(res, 404, { error: 'not found' });
  const fn = functions[match[1]];
  if (typeof fn !== 'function') return send(res, 501, { error: 'no such function: ' + match[1] });
  let size = 0;
  const chunks = [];
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > 1024 * 1024) req.destroy();
    else chunks.push(chunk);
  });
  req.on('end', () => {
    let input = null;
    try {
      input = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null;
    } catch {
      return send(res, 400, { error: 'the body must be JSON' });
    }
    Promise.resolve()
      .then(() => fn(input))
      .then((output) => send(res, 200, output === undefined ? null : output))
      .catch((error) => send(res, 500, { error: String(error && error.message ? error.message : error) }));
  });
});
server.listen(Number(process.env.PORT), process.env.HOST || '0.0.0.0');
`;

/** The scaffold as the AppScaffold port: Porter's own Node server, unless the app brings one. */
export class NodeAppScaffold implements AppScaffold {
  filesOf(document: AppDocument): ScaffoldFile[] {
    return scaffold(document);
  }
}
