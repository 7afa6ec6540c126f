import { Fragment, type ReactNode } from 'react';

/**
 * A small, safe reading of model text: fenced code blocks, paragraphs, line breaks and inline
 * `code`. Everything is rendered as text nodes; no HTML from a model ever reaches the page.
 */
export function RichText({ text }: { text: string }) {
  const blocks = text.split(/```/);
  return (
    <>
      {blocks.map((block, index) => {
        if (index % 2 === 1) {
          const newline = block.indexOf('\n');
          const language = newline > 0 ? block.slice(0, newline).trim() : '';
          const code = newline >= 0 && /^[\w+-]*$/.test(language) ? block.slice(newline + 1) : block;
          return (
            <pre key={index} className="code-block" data-language={language || undefined}>
              <code>{code.replace(/\n$/, '')}</code>
            </pre>
          );
        }
        return block
          .split(/\n{2,}/)
          .filter((paragraph) => paragraph.trim() !== '')
          .map((paragraph, p) => <p key={`${index}-${p}`}>{withBreaks(paragraph)}</p>);
      })}
    </>
  );
}

function withBreaks(paragraph: string): ReactNode {
  const lines = paragraph.replace(/^\n+|\n+$/g, '').split('\n');
  return lines.map((line, index) => (
    <Fragment key={index}>
      {index > 0 ? <br /> : null}
      {inlineCode(line)}
    </Fragment>
  ));
}

function inlineCode(line: string): ReactNode {
  const pieces = line.split(/(`[^`\n]+`)/);
  return pieces.map((piece, index) =>
    piece.startsWith('`') && piece.endsWith('`') && piece.length > 2 ? <code key={index}>{piece.slice(1, -1)}</code> : piece,
  );
}
