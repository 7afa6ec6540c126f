import { expect } from 'chai';
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigModuleError, findConfigModule, loadConfigModule } from '../../composition/server/config-module.js';
import { scratchFolder } from '../support/scratch-folder.js';

const LOADER = fileURLToPath(new URL('../../composition/server/config-module.ts', import.meta.url));

describe('a host config module (porter serve --config, porter sync --config)', () => {
  const folder = scratchFolder('porter-config-module-', { each: true });

  async function module(name: string, text: string): Promise<string> {
    const file = join(folder.path(), name);
    await writeFile(file, text);
    return file;
  }

  async function refusal(file: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
    try {
      await loadConfigModule(file, env);
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigModuleError);
      return (error as Error).message;
    }
    return expect.fail('expected the config module to be refused');
  }

  it('reads the options from a default export, an (async) function of the environment, or `export const options`', async () => {
    expect(await loadConfigModule(await module('a.mjs', 'export default { mount: "/porter" };'), {})).to.deep.equal({ mount: '/porter' });
    const fromEnv = await module('b.mjs', 'export default async (env) => ({ databaseUrl: env.DB, instructions: "hi" });');
    expect(await loadConfigModule(fromEnv, { DB: 'sqlite::memory:' })).to.deep.equal({
      databaseUrl: 'sqlite::memory:',
      instructions: 'hi',
    });
    expect(await loadConfigModule(await module('c.mjs', 'export const options = { maxSteps: 3 };'), {})).to.deep.equal({ maxSteps: 3 });
    expect(await loadConfigModule(await module('d.mjs', 'export function options() { return { maxSteps: 4 }; }'), {})).to.deep.equal({
      maxSteps: 4,
    });
  });

  it('a TypeScript module loads where a loader is registered (the porter command registers tsx)', async () => {
    const file = await module('porter.config.ts', 'const steps: number = 5;\nexport default { maxSteps: steps };\n');
    expect(await loadConfigModule(file, {})).to.deep.equal({ maxSteps: 5 });
  });

  it('finds porter.config.ts, .mjs or .js in the working directory, in that order', async () => {
    expect(findConfigModule(folder.path())).to.equal(undefined);
    await module('porter.config.js', 'export default {};');
    expect(findConfigModule(folder.path())).to.equal(join(folder.path(), 'porter.config.js'));
    await module('porter.config.mjs', 'export default {};');
    expect(findConfigModule(folder.path())).to.equal(join(folder.path(), 'porter.config.mjs'));
  });

  it('a module that exports nothing usable says what to export', async () => {
    expect(await refusal(await module('none.mjs', 'export const port = 3000;')))
      .to.contain('exports neither a default export nor `options`')
      .and.contain('export the createPorter options');
    expect(await refusal(await module('string.mjs', 'export default "options";'))).to.contain('exports a string');
    expect(await refusal(await module('array.mjs', 'export default [];'))).to.contain('exports an array');
    expect(await refusal(await module('null.mjs', 'export default () => null;'))).to.contain('returned null');
  });

  it('a module that fails to import, or whose function throws, names the file and the error', async () => {
    const broken = await module('broken.mjs', 'export default {');
    expect(await refusal(broken)).to.contain(`could not load the config module ${broken}: SyntaxError`);
    const throws = await module('throws.mjs', 'throw new Error("DATABASE is not set");');
    expect(await refusal(throws)).to.contain(`could not load the config module ${throws}: Error: DATABASE is not set`);
    const missing = await module('missing.mjs', 'import "./not-there.mjs"; export default {};');
    expect(await refusal(missing)).to.contain('ERR_MODULE_NOT_FOUND');
    const fn = await module('fn.mjs', 'export default () => { throw new Error("no key"); };');
    expect(await refusal(fn)).to.contain(`the options function of ${fn} threw: Error: no key`);
    expect(await refusal(join(folder.path(), 'nowhere.mjs'))).to.equal(`no config module at ${join(folder.path(), 'nowhere.mjs')}`);
  });

  it('a TypeScript module under plain node (no loader) says to compile it or run with tsx', async function () {
    this.timeout(20_000);
    // The loader bundled to JavaScript and run by node itself, as an installed build runs it.
    const bundle = join(folder.path(), 'loader.mjs');
    await build({ entryPoints: [LOADER], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' });
    // An enum: no Node strips it, so newer Nodes with built-in type stripping refuse it too.
    const config = await module('porter.config.ts', 'enum Mode { Fast }\nexport default { maxSteps: Mode.Fast + 1 };\n');
    const script = await module(
      'run.mjs',
      `import { loadConfigModule } from ${JSON.stringify(bundle)};\n` +
        `try { await loadConfigModule(${JSON.stringify(config)}, {}); console.log('loaded'); } catch (error) { console.log(error.name + ': ' + error.message); }\n`,
    );
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [script], { env: { PATH: process.env.PATH } });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    expect(output).to.contain(`ConfigModuleError: ${config} is TypeScript, and this Node cannot run it without a TypeScript loader`);
    expect(output)
      .to.contain('Compile it to JavaScript')
      .and.contain(`node --import tsx ./node_modules/.bin/porter <command> --config ${config}`);
  });
});
