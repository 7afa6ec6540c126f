import { memo, useState, type ComponentProps, type ReactNode } from 'react';
import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeHighlight from 'rehype-highlight';
import remend from 'remend';
import { copyText } from './clipboard.js';
import { CODE_LANGUAGES } from './code-languages.js';

/**
 * A model's answer as Markdown with GitHub's extensions (tables, task lists, strikethrough,
 * autolinks): react-markdown with remark-gfm, code highlighted by rehype-highlight (highlight.js, in the
 * languages of code-languages.ts). While the answer streams, remend (the healer Vercel wrote for streamed AI
 * output) closes what is still open (`**bol` reads as bold, a half-written link as its text), so
 * the text does not flicker between raw and formatted.
 *
 * No HTML from the model reaches the page: react-markdown drops raw HTML (`skipHtml`), and links
 * and images keep only http(s), mailto and relative targets (its default URL rule).
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const source = streaming ? remend(text, { linkMode: 'text-only' }) : text;
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={REMARK}
        rehypePlugins={REHYPE}
        components={COMPONENTS}
        skipHtml
        urlTransform={(url, key) => (key === 'src' && url.startsWith('data:') ? '' : defaultUrlTransform(url))}
      >
        {source}
      </ReactMarkdown>
    </div>
  );
});

const REMARK: ComponentProps<typeof ReactMarkdown>['remarkPlugins'] = [remarkGfm];
// Only a fence that names its language is highlighted: guessing costs time on every streamed chunk.
const REHYPE: ComponentProps<typeof ReactMarkdown>['rehypePlugins'] = [
  [rehypeHighlight, { detect: false, languages: CODE_LANGUAGES }],
  () => headingsUnderThePage,
];

interface HastNode {
  type: string;
  tagName?: string;
  children?: HastNode[];
}

/**
 * An answer's headings fitted into the page's outline: the page's title is its h1, so the answer's
 * top level becomes h2 and no level is skipped ("### Summary" straight after the title reads as h2,
 * a "####" under an h2 as h3), as a screen reader's list of headings expects.
 */
function headingsUnderThePage(tree: HastNode): void {
  const headings: HastNode[] = [];
  const walk = (node: HastNode) => {
    if (node.type === 'element' && /^h[1-6]$/.test(node.tagName ?? '')) headings.push(node);
    node.children?.forEach(walk);
  };
  walk(tree);
  const ranks = [...new Set(headings.map((h) => Number(h.tagName![1])))].sort((a, b) => a - b);
  let previous = 1;
  for (const heading of headings) {
    const level = Math.min(2 + ranks.indexOf(Number(heading.tagName![1])), previous + 1, 6);
    heading.tagName = `h${level}`;
    previous = level;
  }
}

const COMPONENTS: Components = {
  // Links leave the conversation: a new tab, and nothing of this page goes with them.
  a: ({ node: _node, href, children, ...rest }) => (
    <a {...rest} href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
  // Wide tables scroll inside the message instead of widening it; the block takes focus, so a
  // keyboard can scroll it too.
  table: ({ node: _node, children, ...rest }) => (
    <div className="table-wrap" role="region" aria-label="Table" tabIndex={0}>
      <table {...rest}>{children}</table>
    </div>
  ),
  // A task list's checkbox is named by its item's text (a label around both).
  li: ({ node: _node, children, className, ...rest }) => (
    <li className={className} {...rest}>
      {className?.includes('task-list-item') ? <label className="task-label">{children}</label> : children}
    </li>
  ),
  pre: ({ node, children }) => <CodeBlock language={languageOf(node)}>{children}</CodeBlock>,
};

function languageOf(node: unknown): string | undefined {
  const code = (node as { children?: Array<{ properties?: { className?: unknown } }> } | undefined)?.children?.[0];
  const classes = code?.properties?.className;
  const names = Array.isArray(classes) ? classes.map(String) : [];
  return names.find((name) => name.startsWith('language-'))?.slice('language-'.length);
}

/** A fenced block: its language, a copy button, the highlighted code. */
function CodeBlock({ language, children }: { language: string | undefined; children: ReactNode }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="code-block" data-language={language}>
      <div className="code-head">
        <span className="code-language">{language ?? 'code'}</span>
        <button
          type="button"
          className="code-copy"
          onClick={(event) => {
            const text = event.currentTarget.closest('.code-block')?.querySelector('code')?.textContent ?? '';
            void copyText(text).then(() => {
              setCopied(true);
              window.setTimeout(() => setCopied(false), 1500);
            });
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {/* Focusable, so a keyboard can scroll a long line into view. */}
      <pre tabIndex={0} role="region" aria-label={`${language ?? 'Code'} code`}>
        {children}
      </pre>
    </div>
  );
}
