/**
 * `npm run build`: what the published package ships, in `dist/`. TypeScript compiles the runtime to
 * ESM with declarations and source maps (tsconfig.build.json); files the runtime reads beside its
 * modules are copied; the chrome and the served app page's runtime are bundled once, here, so an installed Porter serves static files
 * and needs neither esbuild nor TypeScript nor tsx.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServedPage, SERVED_PAGE_ASSET } from '../adapters/apps/served-page-script.js';
import { buildChrome } from '../adapters/chrome/build-chrome.js';
import type { ChromeAsset, ChromeManifest } from '../adapters/chrome/chrome-bundle.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const SOURCES = ['domain', 'application', 'ports', 'adapters', 'composition'];

rmSync(DIST, { recursive: true, force: true });

const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });

// Scripts the runtime hands to child processes (the sandbox's preloads) are plain CommonJS files.
for (const file of SOURCES.flatMap((folder) => filesUnder(join(ROOT, folder))).filter((path) => path.endsWith('.cjs'))) {
  const target = join(DIST, relative(ROOT, file));
  mkdirSync(dirname(target), { recursive: true });
  cpSync(file, target);
}

const chrome = await buildChrome();
const assets = join(DIST, 'adapters', 'chrome', 'assets');
mkdirSync(assets, { recursive: true });
const writeAsset = (asset: ChromeAsset) => {
  writeFileSync(join(assets, asset.name), asset.body);
  writeFileSync(join(assets, `${asset.name}.gz`), asset.gzip);
  writeFileSync(join(assets, `${asset.name}.br`), asset.brotli);
};
writeAsset(chrome.script);
writeAsset(chrome.styles);
writeFileSync(
  join(assets, 'manifest.json'),
  `${JSON.stringify({ script: chrome.script.name, styles: chrome.styles.name } satisfies ChromeManifest)}\n`,
);

// The served app page's runtime, bundled once, so an installed Porter needs no esbuild to serve apps.
const servedPage = join(DIST, relative(ROOT, fileURLToPath(SERVED_PAGE_ASSET)));
mkdirSync(dirname(servedPage), { recursive: true });
writeFileSync(servedPage, bundleServedPage());

chmodSync(join(DIST, 'composition', 'cli', 'bin.js'), 0o755);
console.log(`built ${relative(ROOT, DIST)}/: the runtime, its declarations and the chrome (${chrome.script.name})`);

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}
