import { defined } from '../../../domain/defined.js';
/** The colour scheme and accent the framing page asks the served page to follow. */
export interface PageTheme {
  readonly scheme?: 'dark' | 'light';
  readonly accent?: string;
}

/**
 * What of a theme message the page follows: a scheme of `dark` or `light`, an accent that is a
 * hex colour (`#abc` to `#aabbccdd`). Anything else is ignored, so no message can inject CSS.
 */
export function themeOf(theme: unknown): PageTheme {
  const t = (theme ?? {}) as { scheme?: unknown; accent?: unknown };
  return defined({
    scheme: t.scheme === 'dark' || t.scheme === 'light' ? t.scheme : undefined,
    accent: typeof t.accent === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(t.accent) ? t.accent : undefined,
  });
}

/** Follows `theme` on the page's root element: `data-scheme` and the `--accent` property. */
export function applyTheme(root: HTMLElement, theme: unknown): void {
  const { scheme, accent } = themeOf(theme);
  if (scheme) root.dataset.scheme = scheme;
  if (accent) root.style.setProperty('--accent', accent);
}
