import type { ChromeBundle } from './chrome-bundle.js';

/** What the page names: the wire the client calls, the demo sign-in switch and the title. */
export interface ChromePageOptions {
  readonly wire: string;
  readonly demoSignIn?: boolean;
  readonly title?: string;
}

/** The chrome's one HTML page: it loads the bundle from `<base>assets/`. */
export function chromePage(bundle: ChromeBundle, base: string, options: ChromePageOptions): string {
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
