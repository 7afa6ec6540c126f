import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const VERSIONS = readFileSync(join(ROOT, 'docs', 'versions.md'), 'utf8');

/** The version package.json pins a package at (a dependency's exact pin before an optional peer's range). */
const pinned = (name: string): string | undefined =>
  MANIFEST.dependencies[name] ?? MANIFEST.devDependencies[name] ?? MANIFEST.peerDependencies[name]?.replace(/^\^/, '');

/** The rows of docs/versions.md's table of dependencies kept below their current major: the packages, and the versions kept at. */
function keptBack(): Array<{ readonly packages: string[]; readonly keptAt: string[] }> {
  const section = VERSIONS.slice(VERSIONS.indexOf('## Node and the dependencies'), VERSIONS.indexOf('## Which library does what'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [packages = '', keptAt = ''] = line.split('|').slice(1, 3);
      return {
        packages: [...packages.matchAll(/`([^`]+)`/g)].map((match) => match[1]!),
        keptAt: keptAt.split(',').map((version) => version.trim()),
      };
    });
}

describe('the versions Porter is on, as the README and docs/versions.md say them', () => {
  it('docs/versions.md gives the Node floor of engines.node, and each dependency it keeps back at the version package.json pins', () => {
    expect(VERSIONS).to.include(`\`engines.node\` \`${MANIFEST.engines.node}\``);
    const rows = keptBack();
    expect(
      rows.map((row) => row.packages[0]),
      'the kept-back table',
    ).to.include.members(['@mikro-orm/core', 'typescript', 'node']);
    for (const { packages, keptAt } of rows) {
      const checked = packages.filter((name) => pinned(name) !== undefined);
      expect(checked, `a row names packages package.json has: ${packages.join(', ')}`).to.not.deep.equal([]);
      for (const name of checked)
        expect(
          keptAt.some((version) => `${pinned(name)}.`.startsWith(`${version}.`)),
          `${name} is pinned at ${pinned(name)}, the table says ${keptAt.join(', ')}`,
        ).to.equal(true);
    }
  });

  it('the README names the AI SDK majors Porter is on and says why MikroORM stays where it is, linking the rest', () => {
    const major = (name: string) => pinned(name)!.split('.')[0];
    expect(README).to.include(`\`ai\` ${major('ai')} and \`@ai-sdk/react\` ${major('@ai-sdk/react')}`);
    const mikroOrm = keptBack().find((row) => row.packages.includes('@mikro-orm/core'))!;
    expect(README).to.match(new RegExp(`except MikroORM, which stays on ${mikroOrm.keptAt[0]!.replace('.', '\\.')}: MikroORM \\d+ drops`));
    expect(README).to.include('](docs/versions.md#node-and-the-dependencies)');
  });
});
