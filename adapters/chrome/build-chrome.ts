import { createHash } from 'node:crypto';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import type { ChromeAsset, ChromeBundle } from './chrome-bundle.js';

const ENTRY = fileURLToPath(new URL('./client/main.tsx', import.meta.url));

let built: Promise<ChromeBundle> | null = null;

/**
 * Bundles the React client with esbuild, in memory. The package build (`npm run build`) writes the
 * result to files that the installed package serves; a source checkout builds it here instead,
 * once per process at start (a fresh clone needs no build step), and later callers share it.
 */
export function buildChrome(): Promise<ChromeBundle> {
  built ??= bundle().catch((error: unknown) => {
    built = null;
    throw error;
  });
  return built;
}

async function bundle(): Promise<ChromeBundle> {
  const result = await build({
    entryPoints: { chrome: ENTRY },
    bundle: true,
    write: false,
    outdir: 'chrome',
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
    plugins: [englishZodMessagesOnly, chosenCodeLanguagesOnly],
  });
  const script = result.outputFiles.find((file) => file.path.endsWith('.js'));
  const styles = result.outputFiles.find((file) => file.path.endsWith('.css'));
  if (!script || !styles) throw new Error('the chrome build produced no script or no stylesheet');
  return { script: named('chrome', 'js', script.contents), styles: named('chrome', 'css', styles.contents) };
}

function named(stem: string, extension: string, body: Uint8Array): ChromeAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return {
    name: `${stem}.${hash}.${extension}`,
    body,
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  };
}

/**
 * The AI SDK reads its stream chunks with zod, whose namespace object drags in the error messages
 * of every language (a quarter of the bundle). The chrome never switches zod's language, so only
 * the English messages zod installs by default are kept.
 */
const englishZodMessagesOnly: Plugin = {
  name: 'porter-zod-english-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /[/\\]locales[/\\]index\.js$/ }, (args) => {
      if (!args.importer.includes(`${sep}node_modules${sep}zod${sep}`)) return undefined;
      return { path: 'zod-locales', namespace: 'porter-chrome', pluginData: join(dirname(args.importer), '..', 'locales') };
    });
    esbuild.onLoad({ filter: /^zod-locales$/, namespace: 'porter-chrome' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: args.pluginData as string,
      loader: 'js',
    }));
  },
};

/**
 * rehype-highlight registers highlight.js's 37 "common" languages unless given its own list; the
 * chrome gives one (client/code-languages.ts), so lowlight's common set is left out of the bundle.
 */
const chosenCodeLanguagesOnly: Plugin = {
  name: 'porter-chosen-code-languages',
  setup(esbuild) {
    esbuild.onResolve({ filter: /[/\\]lib[/\\]common\.js$/ }, (args) => {
      if (!args.importer.includes(`${sep}node_modules${sep}lowlight${sep}`)) return undefined;
      return { path: 'lowlight-common', namespace: 'porter-chrome' };
    });
    esbuild.onLoad({ filter: /^lowlight-common$/, namespace: 'porter-chrome' }, () => ({
      contents: 'export const grammars = {};',
      loader: 'js',
    }));
  },
};
