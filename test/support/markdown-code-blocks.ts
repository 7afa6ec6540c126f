import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';

/** A TypeScript code block of a Markdown page, and the file it becomes in a host. */
export interface CodeBlock {
  /** The Markdown page, relative to the repository (`docs/hosts.md`). */
  readonly page: string;
  /** The line of the opening fence. */
  readonly line: number;
  /** Where the block is written, relative to the folder the blocks are written into. */
  readonly file: string;
  readonly code: string;
}

const TYPESCRIPT = new Set(['ts', 'tsx', 'typescript']);

/** A node of the Markdown syntax tree (mdast): the root or any content under it. */
type MarkdownNode = ReturnType<typeof fromMarkdown> | ReturnType<typeof fromMarkdown>['children'][number];

/** README.md and every page under docs/: the Markdown whose code blocks must build as written. */
export function documentationPages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => join('docs', path).split(sep).join('/'));
  return ['README.md', ...docs.sort()];
}

/**
 * The TypeScript blocks of one page (```ts, ```tsx, ```typescript), each placed in a folder of the
 * page's own: at its `title="path/file.ts"` (so the page's blocks can import one another), or at a
 * name made from its line. Every block is a whole module.
 */
export function typeScriptBlocks(root: string, page: string): CodeBlock[] {
  const folder = page.replace(/\.md$/, '').replaceAll('/', '__');
  const blocks: CodeBlock[] = [];
  const placed = new Map<string, number>();
  const visit = (node: MarkdownNode) => {
    if (node.type === 'code' && node.lang && TYPESCRIPT.has(node.lang)) {
      const line = node.position!.start.line;
      const title = /(?:^|\s)title=(?:"([^"]+)"|'([^']+)')/
        .exec(node.meta ?? '')
        ?.slice(1)
        .find(Boolean);
      const extension = node.lang === 'tsx' ? 'tsx' : 'ts';
      const name = title ?? `block-${line}.${extension}`;
      if (normalize(name).startsWith('..') || name.startsWith('/'))
        throw new Error(`${page}:${line}: title="${name}" leaves the page's folder`);
      const file = `${folder}/${normalize(name).split(sep).join('/')}`;
      const earlier = placed.get(file);
      if (earlier !== undefined) throw new Error(`${page}:${line}: title="${name}" is also the block at line ${earlier}`);
      placed.set(file, line);
      blocks.push({ page, line, file, code: node.value });
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(readFileSync(join(root, page), 'utf8')));
  return blocks;
}

/** Writes the blocks under `into`; returns the map from each written file back to its block. */
export function writeBlocks(into: string, blocks: readonly CodeBlock[]): Map<string, CodeBlock> {
  const written = new Map<string, CodeBlock>();
  for (const block of blocks) {
    const path = join(into, block.file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${block.code}\n`);
    written.set(relative(into, path).split(sep).join('/'), block);
  }
  return written;
}

/**
 * `tsc --pretty false` diagnostics (`file(line,col): error TS…`) told as the Markdown page and line
 * they come from: `docs/hosts.md:52 (block at line 48): error TS2304: Cannot find name 'x'.`
 */
export function diagnosticsByPage(output: string, into: string, written: Map<string, CodeBlock>): string[] {
  const found: string[] = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line.trim());
    if (!match) continue;
    const block = written.get(relative(into, join(into, match[1]!)).split(sep).join('/'));
    found.push(
      block
        ? `${block.page}:${block.line + Number(match[2])} (the block at line ${block.line}, ${block.file}:${match[2]}:${match[3]}): ${match[4]}`
        : line.trim(),
    );
  }
  return found;
}
