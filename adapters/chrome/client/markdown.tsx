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
const REHYPE: ComponentProps<typeof ReactMarkdown>['rehypePlugins'] = [[rehypeHighlight, { detect: false, languages: CODE_LANGUAGES }]];

const COMPONENTS: Components = {
  // Links leave the conversation: a new tab, and nothing of this page goes with them.
  a: ({ node: _node, href, children, ...rest }) => (
    <a {...rest} href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
  // Wide tables scroll inside the message instead of widening it.
  table: ({ node: _node, children, ...rest }) => (
    <div className="table-wrap">
      <table {...rest}>{children}</table>
    </div>
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
      <pre>{children}</pre>
    </div>
  );
}
