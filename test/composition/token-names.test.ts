import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TOKENS } from '../../composition/tokens.js';

// A token is `Symbol.for('porter.<name>')`, so two families writing the same name would share one
// service without a word from tsc: the names are kept apart here, where every family's file is read.
const modules = fileURLToPath(new URL('../../composition/modules/', import.meta.url));
const tokenFiles = readdirSync(modules).filter((file) => file.endsWith('-tokens.ts'));

async function everyToken(): Promise<Array<{ where: string; token: symbol }>> {
  const found: Array<{ where: string; token: symbol }> = Object.entries(TOKENS).map(([key, token]) => ({ where: `TOKENS.${key}`, token }));
  for (const file of tokenFiles) {
    const exports = (await import(new URL(file, `file://${modules}`).href)) as Record<string, unknown>;
    for (const [name, tokens] of Object.entries(exports)) {
      if (!name.endsWith('_TOKENS')) continue;
      for (const [key, token] of Object.entries(tokens as Record<string, symbol>)) found.push({ where: `${name}.${key}`, token });
    }
  }
  return found;
}

describe('token names', () => {
  it('each family keeps its tokens next to the module that binds them', () => {
    expect(tokenFiles).to.not.be.empty;
    for (const file of tokenFiles) expect(existsSync(`${modules}${file.replace(/-tokens\.ts$/, '-module.ts')}`), file).to.equal(true);
  });

  it('no two tokens, in the core or any family, share a name', async () => {
    const byName = new Map<string, string[]>();
    for (const { where, token } of await everyToken()) {
      expect(token.description, where).to.match(/^porter\./);
      byName.set(token.description!, [...(byName.get(token.description!) ?? []), where]);
    }
    const shared = [...byName.values()].filter((places) => places.length > 1);
    expect(shared).to.deep.equal([]);
  });
});
