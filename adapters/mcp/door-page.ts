import type { DoorBrand } from './door-brand.js';

export type { DoorBrand } from './door-brand.js';

export const DEFAULT_BRAND: DoorBrand = { name: 'Porter' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\))$/;

/** A complete page in the brand's dress. `body` is trusted HTML built with escapeHtml. */
export function brandedPage(brand: DoorBrand, title: string, body: string): string {
  const accent = brand.accentColor && COLOR.test(brand.accentColor) ? brand.accentColor : '#2f5bea';
  const logo =
    brand.logoUrl && /^(https:\/\/|\/)/.test(brand.logoUrl) ? `<img class="logo" src="${escapeHtml(brand.logoUrl)}" alt="">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · ${escapeHtml(brand.name)}</title>
<style>
:root{--accent:${accent};color-scheme:light dark}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;padding:2rem 1rem;background:Canvas;color:CanvasText}
main{max-width:36rem;margin:0 auto}
.logo{max-height:3rem;margin-bottom:1rem}
h1{font-size:1.4rem;margin:0 0 .5rem}
.muted{opacity:.75}
ul.tools{list-style:none;padding:0;margin:1rem 0}
ul.tools li{padding:.5rem 0;border-bottom:1px solid color-mix(in srgb,CanvasText 15%,transparent)}
.badge{display:inline-block;font-size:.75rem;padding:0 .4rem;border-radius:.3rem;margin-left:.4rem;border:1px solid currentColor}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{font:inherit;padding:.6rem 1.2rem;border-radius:.4rem;border:1px solid var(--accent);cursor:pointer;background:transparent;color:inherit}
button.primary{background:var(--accent);color:#fff}
code,pre{font-family:ui-monospace,Menlo,monospace;font-size:.9em}
pre{padding:.75rem;overflow-x:auto;border-radius:.4rem;background:color-mix(in srgb,CanvasText 7%,transparent)}
section{margin-top:1.5rem}
</style></head><body><main>${logo}${body}</main></body></html>`;
}

/**
 * A page that no other site may frame (clickjacking) or cache, and that runs no script.
 */
export function pageResponse(status: number, html: string): Response {
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; img-src https: 'self' data:; frame-ancestors 'none'; base-uri 'none'",
      'referrer-policy': 'no-referrer',
    },
  });
}
