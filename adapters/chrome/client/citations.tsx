import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import type { UIMessage } from 'ai';
import { describeError, wire } from './wire.js';
import { defined } from '../../../domain/defined.js';

type Part = UIMessage['parts'][number];

/** A passage as `GET /knowledge/passages/:id` answers it. */
const passage = z.object({ id: z.string(), title: z.string(), text: z.string(), start: z.number(), end: z.number() });
type Passage = z.infer<typeof passage>;

/** What the answer cites: its `source-document` and `source-url` parts, each once. */
interface Citation {
  readonly key: string;
  readonly title: string;
  /** A knowledge passage's id, opened in place. */
  readonly passageId?: string;
  /** A web page, opened in a new tab. */
  readonly url?: string;
}

function citationsOf(parts: ReadonlyArray<Part>): Citation[] {
  const seen = new Set<string>();
  const citations: Citation[] = [];
  for (const part of parts) {
    if (part.type !== 'source-document' && part.type !== 'source-url') continue;
    if (seen.has(part.sourceId)) continue;
    seen.add(part.sourceId);
    if (part.type === 'source-document')
      citations.push({
        key: part.sourceId,
        title: part.title,
        ...defined({ passageId: part.sourceId.startsWith('psg_') ? part.sourceId : undefined }),
      });
    // Only web pages open from here: another scheme (javascript:, data:) is shown, never followed.
    else
      citations.push({
        key: part.sourceId,
        title: part.title ?? part.url,
        ...defined({ url: /^https?:\/\//i.test(part.url) ? part.url : undefined }),
      });
  }
  return citations;
}

/** The sources an answer cites, under it: each passage opens in a dialog, read from the wire (so only what the person may read). */
export function Citations({ parts }: { parts: ReadonlyArray<Part> }) {
  const citations = citationsOf(parts);
  const [open, setOpen] = useState<Citation | null>(null);
  if (citations.length === 0) return null;
  return (
    <nav className="citations" aria-label="Sources">
      <span className="citations-label">Sources</span>
      <ol>
        {citations.map((citation, index) => (
          <li key={citation.key}>
            {citation.url ? (
              <a className="citation" href={citation.url} target="_blank" rel="noreferrer noopener">
                <span className="citation-number">{index + 1}</span> {citation.title}
              </a>
            ) : (
              <button
                type="button"
                className="citation"
                data-passage-id={citation.passageId}
                disabled={!citation.passageId}
                onClick={() => setOpen(citation)}
              >
                <span className="citation-number">{index + 1}</span> {citation.title}
              </button>
            )}
          </li>
        ))}
      </ol>
      {open?.passageId ? <PassageDialog passageId={open.passageId} title={open.title} onClose={() => setOpen(null)} /> : null}
    </nav>
  );
}

function PassageDialog({ passageId, title, onClose }: { passageId: string; title: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, setState] = useState<{ passage: Passage } | { error: string } | null>(null);
  useEffect(() => {
    dialog.current?.showModal();
    const controller = new AbortController();
    wire('GET', `/knowledge/passages/${encodeURIComponent(passageId)}`, { schema: passage, signal: controller.signal }).then(
      (found) => setState({ passage: found }),
      (error: unknown) => {
        if ((error as Error).name !== 'AbortError') setState({ error: describeError(error) });
      },
    );
    return () => controller.abort();
  }, [passageId]);
  return (
    <dialog ref={dialog} className="passage-dialog" aria-labelledby="passage-title" onClose={onClose}>
      <header>
        <h2 id="passage-title">{state && 'passage' in state ? state.passage.title : title}</h2>
        <button type="button" className="icon-button" onClick={() => dialog.current?.close()} aria-label="Close">
          ×
        </button>
      </header>
      {state === null ? (
        <p className="passage-loading" aria-busy="true">
          Opening the passage…
        </p>
      ) : 'error' in state ? (
        <p role="alert">{state.error}</p>
      ) : (
        <blockquote className="passage-text">{state.passage.text}</blockquote>
      )}
    </dialog>
  );
}
