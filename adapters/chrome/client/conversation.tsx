import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ChatView } from './chat-view.js';
import { takeFirstMessage } from './first-message.js';
import { navigate } from './route.js';
import { useSession } from './session.js';
import { useThreadList } from './thread-list-state.js';
import { deleteThread, loadThread, renameThread, titleOf } from './threads.js';
import { useLoad } from './use-load.js';
import { WireError, describeError } from './wire.js';
import { IconButton } from './icon.js';

/** One thread: its title and actions above, the conversation below. */
export function Conversation({ threadId }: { threadId: string }) {
  const { epoch, refreshThreads } = useSession();
  const [firstMessage] = useState(() => takeFirstMessage(threadId));
  const loaded = useLoad((signal) => loadThread(threadId, signal), [threadId, epoch]);
  const { threads } = useThreadList();
  const listed = threads?.find((t) => t.id === threadId);
  const [renamed, setRenamed] = useState<string | null>(null);
  const title = renamed ?? (listed ? titleOf(listed) : loaded.data ? titleOf(loaded.data) : firstMessage ? 'New conversation' : '');
  const [renaming, setRenaming] = useState(false);
  // Saved or cancelled, the rename form gives focus back to the Rename button it came from.
  const actions = useRef<HTMLDivElement>(null);
  const wasRenaming = useRef(false);
  useEffect(() => {
    if (wasRenaming.current && !renaming) actions.current?.querySelector<HTMLElement>('[aria-label="Rename conversation"]')?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);

  const rename = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = String(new FormData(event.currentTarget).get('title') ?? '').trim();
    if (!next || next === title) return setRenaming(false);
    try {
      setRenamed(titleOf(await renameThread(threadId, next)));
      setRenaming(false);
      refreshThreads();
    } catch (caught) {
      setDeleteError(describeError(caught));
    }
  };
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const remove = async () => {
    try {
      await deleteThread(threadId);
      refreshThreads();
      navigate({ name: 'home' });
    } catch (caught) {
      setDeleteError(describeError(caught));
    }
  };

  return (
    <div className="page conversation">
      <header className="page-header">
        {renaming ? (
          <form className="rename-form" onSubmit={(event) => void rename(event)}>
            <label className="visually-hidden" htmlFor="thread-title">
              Conversation title
            </label>
            <input
              id="thread-title"
              name="title"
              defaultValue={title}
              maxLength={200}
              autoFocus
              onKeyDown={(event) => event.key === 'Escape' && setRenaming(false)}
            />
            <button type="submit" className="button small primary">
              Save
            </button>
            <button type="button" className="button small secondary" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <h1 className="page-title" title={title}>
            {title || <span className="skeleton-text" aria-label="Loading" />}
          </h1>
        )}
        {loaded.data && !renaming ? (
          <div className="header-actions" ref={actions}>
            <IconButton label="Rename conversation" d="M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4" onClick={() => setRenaming(true)} />
            {/* No "are you sure?": the toast's Undo is the way back. */}
            <IconButton
              label="Delete conversation"
              d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 002 2h6a2 2 0 002-2l1-12M9 7V4h6v3"
              onClick={() => void remove()}
            />
          </div>
        ) : null}
      </header>
      {deleteError ? (
        <p className="banner error" role="alert">
          {deleteError}
        </p>
      ) : null}
      {loaded.data ? (
        <ChatView
          key={`${threadId}:${epoch}`}
          threadId={threadId}
          initialMessages={loaded.data.messages}
          initialVersions={loaded.data.versions}
          firstMessage={firstMessage}
        />
      ) : loaded.error ? (
        <div className="empty-state" role="alert">
          <h2>
            {loaded.error instanceof WireError && loaded.error.code === 'not-found'
              ? 'Conversation not found'
              : 'This conversation could not be opened'}
          </h2>
          <p>
            {loaded.error instanceof WireError && loaded.error.code === 'not-found'
              ? 'It may have been deleted, or it belongs to someone else. Are you signed in as the right person?'
              : describeError(loaded.error)}
          </p>
          <div className="empty-actions">
            <button type="button" className="button secondary" onClick={loaded.reload}>
              Try again
            </button>
            <a className="button primary" href="#/">
              New chat
            </a>
          </div>
        </div>
      ) : (
        <div className="chat-loading" aria-label="Loading conversation">
          <div className="skeleton-bubble right" />
          <div className="skeleton-bubble" />
          <div className="skeleton-bubble short" />
        </div>
      )}
    </div>
  );
}
