import { expect } from 'chai';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configSchema } from '../../composition/config/config-schema.js';
import { FROM_ENVIRONMENT } from '../../composition/config/load-config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** docs/configuration.md, the reference of every option and environment variable. */
async function configurationSection(): Promise<string> {
  const page = await readFile(join(ROOT, 'docs', 'configuration.md'), 'utf8');
  expect(page, 'docs/configuration.md starts with its # Configuration heading').to.match(/^# Configuration\n/);
  return page;
}

/** Every `name` in the first column of the section's tables. */
function tableOptions(section: string): Set<string> {
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1];
    if (first) for (const match of first.matchAll(/`([A-Za-z][A-Za-z0-9]*)`/g)) names.add(match[1]!);
  }
  return names;
}

/** The environment variables Porter's own code reads (`env.X`, `env['X']`, a broker's `set('X')`). */
async function variablesRead(): Promise<Set<string>> {
  const found = new Set<string>();
  for (const folder of ['composition', 'adapters']) {
    for (const file of await readdir(join(ROOT, folder), { recursive: true })) {
      if (!file.endsWith('.ts') || file.includes('migrations')) continue;
      const text = await readFile(join(ROOT, folder, file), 'utf8');
      for (const pattern of [
        /\benv\.([A-Z][A-Z0-9_]+)/g,
        /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
        /\bset\('([A-Z][A-Z0-9_]+)'\)/g,
        /^\s+readonly ([A-Z][A-Z0-9_]+)\?: string;/gm,
      ]) {
        for (const match of text.matchAll(pattern)) found.add(match[1]!);
      }
    }
  }
  // The system's own, not Porter's configuration.
  found.delete('PATH');
  return found;
}

describe('the configuration reference (docs/configuration.md)', () => {
  it('has a table row for every option the config schema accepts, and names no option it does not', async () => {
    const documented = tableOptions(await configurationSection());
    const options = Object.keys(configSchema.shape);
    expect(options.length).to.be.greaterThan(20);
    expect(
      options.filter((option) => !documented.has(option)),
      'options missing from the table',
    ).to.deep.equal([]);
    const strays = [...documented].filter((name) => /^[a-z]/.test(name) && !options.includes(name));
    expect(strays, 'rows for options the schema does not accept').to.deep.equal([]);
  });

  it('names every environment variable Porter reads, and each option a variable fills', async () => {
    const section = await configurationSection();
    const read = await variablesRead();
    const variables = [...new Set([...read, ...Object.keys(FROM_ENVIRONMENT)])];
    expect(variables).to.include.members(['PORTER_SECRET', 'E2B_API_KEY', 'NANGO_HOST', 'PORTER_MODEL_PROVIDER']);
    expect(
      variables.filter((variable) => !section.includes(`\`${variable}`)),
      'variables missing from the page',
    ).to.deep.equal([]);
    for (const [variable, option] of Object.entries(FROM_ENVIRONMENT)) {
      expect(section, `${option} is filled by ${variable}`).to.match(new RegExp(`\\| \`${option}\` \\| \`${variable}\` \\|`));
    }
  });

  it('states the constraints the schema enforces', async () => {
    const section = await configurationSection();
    for (const constraint of [
      '32+ characters',
      '16+ characters',
      '1–3600',
      '60–2592000',
      '1–50',
      'no trailing slash',
      'required when `mcp` is true',
      'needs a `postgres://`',
      'non-empty array',
    ]) {
      expect(section, constraint).to.contain(constraint);
    }
  });
});
