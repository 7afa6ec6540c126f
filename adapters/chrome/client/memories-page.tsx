import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { NAME } from './chrome-config.js';
import { EmptyState, NoticeBanner, PageFrame } from './page.js';
import { useSession } from './session.js';
import { dateTime, relativeTime } from './time.js';
import { useLoad } from './use-load.js';
import { useBusyAction } from './use-busy-action.js';
import { deleteWithUndo, useUndone } from './undo.js';
import { describeError, wire, WireError, WIRE } from './wire.js';

const memory = z.object({
  id: z.string(),
  text: z.string(),
  source: z.union([z.object({ kind: z.literal('agent'), threadId: z.string().optional() }), z.object({ kind: z.literal('person') })]),
  revision: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
type Memory = z.output<typeof memory>;
const memoryList = z.object({ memories: z.array(memory), nextCursor: z.string().nullable().optional() });

/** One memory being edited: the text typed so far and the revision it is written against. */
interface Editing {
  readonly id: string;
  readonly text: string;
  readonly revision: number;
}

/**
 * What the agent remembers about this person: every memory, newest first; add, edit, forget, and
 * export them all as JSON. An edit is written only over the version it started from: when the
 * memory changed meanwhile (another tab, the agent), the page says so and keeps the draft.
 */
export function MemoriesPage() {
  const { epoch } = useSession();
  const list = useLoad((signal) => wire('GET', '/memories?limit=100', { schema: memoryList, signal }), [epoch]);
  useUndone('memory', list.reload);
  const { notice, setNotice, busy, act } = useBusyAction<string>(list.reload);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [draft, setDraft] = useState('');

  const add = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    void act('add', async () => {
      await wire('POST', '/memories', { body: { text }, schema: memory });
      setDraft('');
      setNotice({ tone: 'info', text: 'Remembered.' });
    });
  };

  const save = (event: FormEvent, editing: Editing) => {
    event.preventDefault();
    void act(editing.id, async () => {
      try {
        await wire('PATCH', `/memories/${encodeURIComponent(editing.id)}`, {
          body: { text: editing.text, revision: editing.revision },
          schema: memory,
        });
        setEditing(null);
        setNotice({ tone: 'info', text: 'Saved.' });
      } catch (caught) {
        if (!(caught instanceof WireError) || caught.code !== 'conflict') throw caught;
        // Changed since it was opened: nothing was overwritten. Show what it says now, keep the draft.
        const current = await wire('GET', `/memories/${encodeURIComponent(editing.id)}`, { schema: memory });
        setEditing({ ...editing, revision: current.revision });
        setNotice({
          tone: 'error',
          text: `This memory was changed meanwhile and now says “${current.text}”. Your edit was not saved; it is still here — save again to replace it.`,
        });
      }
    });
  };

  const forget = (m: Memory) =>
    act(m.id, async () => {
      await deleteWithUndo('memory', m.id);
      if (editing?.id === m.id) setEditing(null);
    });

  const memories = list.data?.memories ?? [];
  return (
    <PageFrame
      title="Memories"
      lede={`What ${NAME} remembers about you between conversations. It recalls these when they bear on what you ask; edit or forget any of them.`}
      actions={
        <a className="button secondary" href={`${WIRE}/memories/export`} download="memories.json" data-export-memories>
          Export
        </a>
      }
    >
      <NoticeBanner notice={notice} />
      <form className="card form-card memory-add" onSubmit={add} aria-label="New memory">
        <label className="wide">
          Something to remember
          <textarea
            name="text"
            rows={2}
            maxLength={1000}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="I prefer answers in metric units."
          />
        </label>
        <button type="submit" className="button primary" disabled={busy === 'add' || !draft.trim()}>
          {busy === 'add' ? 'Saving…' : 'Remember'}
        </button>
      </form>
      {list.error && !list.data ? (
        <EmptyState title="Memories could not be loaded" text={describeError(list.error)} onRetry={list.reload} />
      ) : null}
      {!list.data && !list.error ? <div className="skeleton-card" aria-label="Loading" /> : null}
      {list.data && memories.length === 0 ? (
        <EmptyState
          title="No memories"
          text={`When you tell ${NAME} something worth keeping, or add it here, it shows up here, and you can change or forget it at any time.`}
        />
      ) : null}
      <ul className="card-list">
        {memories.map((m) => (
          <li key={m.id} className="card memory" data-memory-id={m.id}>
            {editing?.id === m.id ? (
              <form className="memory-edit" onSubmit={(event) => save(event, editing)} aria-label="Edit memory">
                <label className="visually-hidden" htmlFor={`memory-${m.id}`}>
                  Memory
                </label>
                <textarea
                  id={`memory-${m.id}`}
                  rows={2}
                  maxLength={1000}
                  value={editing.text}
                  onChange={(event) => setEditing({ ...editing, text: event.target.value })}
                />
                <div className="card-actions">
                  <button type="submit" className="button small primary" disabled={busy === m.id || !editing.text.trim()}>
                    {busy === m.id ? 'Saving…' : 'Save'}
                  </button>
                  <button type="button" className="button small secondary" onClick={() => setEditing(null)}>
                    Cancel
                  </button>
                </div>
              </form>
            ) : (
              <div className="card-row">
                <div>
                  <div className="card-title memory-text">{m.text}</div>
                  <div className="card-meta">
                    <span className="badge">{m.source.kind === 'agent' ? 'Saved in a conversation' : 'Added by you'}</span>
                    <span title={dateTime(m.updatedAt)}>
                      {m.updatedAt === m.createdAt ? 'Saved' : 'Edited'} {relativeTime(m.updatedAt)}
                    </span>
                  </div>
                </div>
                <div className="card-actions">
                  <button
                    type="button"
                    className="button small secondary"
                    onClick={() => setEditing({ id: m.id, text: m.text, revision: m.revision })}
                    aria-label={`Edit: ${m.text}`}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="button small secondary"
                    disabled={busy === m.id}
                    onClick={() => void forget(m)}
                    aria-label={`Forget: ${m.text}`}
                  >
                    {busy === m.id ? 'Forgetting…' : 'Forget'}
                  </button>
                </div>
              </div>
            )}
          </li>
        ))}
      </ul>
    </PageFrame>
  );
}
