import type { ChromeBundle } from './chrome-bundle.js';
import { THEME_SCRIPT } from './theme-script.js';

/** What the page names: the wire the client calls, the demo sign-in switch and the host's dress. */
export interface ChromePageOptions {
  readonly wire: string;
  readonly demoSignIn?: boolean;
  readonly title?: string;
  readonly logoUrl?: string;
  readonly accentColor?: string;
  readonly suggestions?: ReadonlyArray<{ readonly label: string; readonly text: string }>;
}

/** What the client reads from the page (`#porter-chrome`): the host's name, mark and suggestions. */
export interface ChromeDress {
  readonly title: string;
  readonly logoUrl: string | null;
  readonly suggestions: ReadonlyArray<{ readonly label: string; readonly text: string }> | null;
}

/** The chrome's one HTML page: it loads the bundle from `<base>assets/`. */
export function chromePage(bundle: ChromeBundle, base: string, options: ChromePageOptions): string {
  const name = options.title?.trim() || 'Porter';
  const title = escapeHtml(name);
  const dress: ChromeDress = { title: name, logoUrl: options.logoUrl ?? null, suggestions: options.suggestions ?? null };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<meta name="porter-wire" content="${escapeHtml(options.wire)}">
<meta name="porter-demo-sign-in" content="${options.demoSignIn ? 'on' : 'off'}">
<script>${THEME_SCRIPT}</script>
<title>${title}</title>
<link rel="icon" href="${escapeHtml(options.logoUrl ?? favicon(name, options.accentColor ?? '#4f46e5'))}">
<link rel="stylesheet" href="${base}assets/${bundle.styles.name}">
${options.accentColor ? `<style>${accentStyle(options.accentColor)}</style>\n` : ''}<script type="application/json" id="porter-chrome">${JSON.stringify(dress).replace(/</g, '\\u003c')}</script>
<script type="module" src="${base}assets/${bundle.script.name}"></script>
</head>
<body>
<div id="root"></div>
<noscript><p style="font-family:system-ui;padding:2rem">${title} needs JavaScript to run.</p></noscript>
</body>
</html>
`;
}

/**
 * The host's accent in both schemes: the colour itself for buttons and links, a deeper one for
 * hover, a faint wash for selected things, and black or white text on it, whichever reads better.
 */
function accentStyle(accent: string): string {
  const text = luminance(accent) > 0.45 ? '#111114' : '#ffffff';
  return [
    `:root{--accent:${accent};--accent-strong:color-mix(in srgb,${accent} 82%,black);--accent-soft:color-mix(in srgb,${accent} 12%,white);--accent-text:${text};--focus:${accent}}`,
    `:root[data-theme='dark']{--accent:${accent};--accent-strong:color-mix(in srgb,${accent} 75%,white);--accent-soft:color-mix(in srgb,${accent} 22%,#131316);--accent-text:${text};--focus:color-mix(in srgb,${accent} 70%,white)}`,
  ].join('');
}

/** Relative luminance of a #rgb or #rrggbb colour (WCAG's formula). */
function luminance(hex: string): number {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(digits.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The brand mark, inline: the name's initial on the accent. No extra request, nothing to serve. */
function favicon(name: string, accent: string): string {
  const initial = escapeHtml([...name][0]!.toUpperCase());
  return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${accent}"/><text x="16" y="22" font-family="system-ui,sans-serif" font-size="17" font-weight="700" fill="#fff" text-anchor="middle">${initial}</text></svg>`)}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
