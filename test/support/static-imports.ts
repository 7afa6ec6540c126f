import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier: string): string {
  return specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
}

/**
 * The packages built ES modules import statically, following relative imports from the entries:
 * what Node must resolve before the first line of Porter runs. Dynamic `import()` is not followed
 * (that is how optional packages are loaded). Each package maps to the files that import it.
 */
export function staticPackageImports(entries: ReadonlyArray<string>): Map<string, string[]> {
  const seen = new Set<string>();
  const stack = [...entries];
  const packages = new Map<string, string[]>();
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm)) {
      const specifier = (match[1] ?? match[2])!;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (!existsSync(target)) throw new Error(`${file} imports ${specifier}, which is not in the package`);
        stack.push(target);
      } else if (!specifier.startsWith('node:')) {
        const name = packageOf(specifier);
        packages.set(name, [...(packages.get(name) ?? []), file]);
      }
    }
  }
  return packages;
}
