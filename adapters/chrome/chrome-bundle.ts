import { readFile } from 'node:fs/promises';

/** One built file, named by the hash of its content, with its compressed forms for transfer. */
export interface ChromeAsset {
  readonly name: string;
  readonly body: Uint8Array;
  readonly gzip: Uint8Array;
  readonly brotli: Uint8Array;
}

/** The built chrome: one script and one stylesheet. */
export interface ChromeBundle {
  readonly script: ChromeAsset;
  readonly styles: ChromeAsset;
}

/** What `npm run build` writes beside this module: the asset names, each with `.gz` and `.br` forms. */
export interface ChromeManifest {
  readonly script: string;
  readonly styles: string;
}

export const CHROME_ASSETS = new URL('./assets/', import.meta.url);

let loaded: Promise<ChromeBundle> | null = null;

/**
 * The chrome as the package ships it: prebuilt files under `assets/`, read once. A source
 * checkout has none and bundles the client in memory instead (esbuild, a development dependency).
 */
export function loadChrome(): Promise<ChromeBundle> {
  loaded ??= prebuilt().then(async (bundle) => bundle ?? (await import('./build-chrome.js')).buildChrome());
  loaded.catch(() => {
    loaded = null;
  });
  return loaded;
}

async function prebuilt(): Promise<ChromeBundle | null> {
  let manifest: ChromeManifest;
  try {
    manifest = JSON.parse(await readFile(new URL('manifest.json', CHROME_ASSETS), 'utf8')) as ChromeManifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return { script: await asset(manifest.script), styles: await asset(manifest.styles) };
}

async function asset(name: string): Promise<ChromeAsset> {
  const [body, gzip, brotli] = await Promise.all(['', '.gz', '.br'].map((suffix) => readFile(new URL(`${name}${suffix}`, CHROME_ASSETS))));
  return { name, body: body!, gzip: gzip!, brotli: brotli! };
}
