import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';

/** Where `npm run build` writes the bundled runtime, beside this module in `dist/`. */
export const SERVED_PAGE_ASSET = new URL('./assets/served-page.js', import.meta.url);

const ENTRY = fileURLToPath(new URL('./served-page/served-page-entry.ts', import.meta.url));

/** The global the bundle sets: `porterServedPage.startServedPage(app, bridge?)`. */
export const SERVED_PAGE_GLOBAL = 'porterServedPage';

let script: string | null = null;

/**
 * The served page's runtime (`served-page-runtime.ts` and its pieces) as one browser script that
 * sets `porterServedPage`. The package ships it prebuilt (`npm run build` writes it with
 * `bundleServedPage`); a source checkout bundles it here, once per process, with esbuild (a
 * development dependency), as the chrome's client is.
 */
export function servedPageBundle(): string {
  script ??= prebuilt() ?? bundleServedPage();
  return script;
}

/**
 * A page's inline script: the bundle, then `start` (a call of `porterServedPage.startServedPage`).
 * Inline, so no `</script` in its text may end the element early.
 */
export function inlineServedPageScript(start: string): string {
  return `${servedPageBundle()}\n${start}`.replace(/<\/(script)/gi, '<\\/$1');
}

/** Bundles the runtime with esbuild: minified, for the browsers the chrome supports. */
export function bundleServedPage(): string {
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  const result = esbuild.buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: SERVED_PAGE_GLOBAL,
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('the served page build produced no script');
  return file.text;
}

function prebuilt(): string | null {
  try {
    return readFileSync(SERVED_PAGE_ASSET, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
