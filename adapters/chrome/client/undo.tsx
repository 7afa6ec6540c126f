import { useCallback, useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { useSession } from './session.js';
import { describeError, wire } from './wire.js';

/**
 * Deleting with a way back: every delete button of the chrome asks `POST /deletions`, the thing
 * leaves its list at once, and a toast says what went with an Undo and the time left. The pending
 * deletions live on the server, so after a reload (or in another tab) the toast is back until the
 * window closes; only then does the server delete for good.
 */

export type DeletableKind = 'app' | 'automation' | 'memory' | 'thread' | 'grant' | 'connection';

const pendingDeletion = z.object({
  id: z.string(),
  kind: z.enum(['app', 'automation', 'memory', 'thread', 'grant', 'connection']),
  label: z.string(),
  undoUntil: z.string(),
});
type PendingDeletion = z.output<typeof pendingDeletion>;
const pendingList = z.object({ deletions: z.array(pendingDeletion) });

const CHANGED = 'porter:deletions-changed';
const UNDONE = 'porter:deletion-undone';

/** Deletes with a way back; the toast shows it at once, and takes the focus the deleted thing's button had. */
export async function deleteWithUndo(kind: DeletableKind, id: string): Promise<void> {
  await wire('POST', '/deletions', { body: { kind, id }, schema: pendingDeletion });
  window.dispatchEvent(new CustomEvent<string>(CHANGED, { detail: id }));
}

/** Where each kind of thing shows in its list, once back. */
const ITEM_OF: Readonly<Record<DeletableKind, string>> = {
  app: 'data-app-id',
  automation: 'data-automation-id',
  memory: 'data-memory-id',
  thread: 'data-thread-id',
  grant: 'data-grant-id',
  connection: 'data-connection-id',
};

/** Whether focus was lost (its element gone with what was deleted or undone): only then is it moved. */
function focusLost(): boolean {
  const at = document.activeElement;
  return !at || at === document.body || !at.isConnected;
}

/** Moves focus to what an undo brought back, once its list shows it (the first control in it). */
function focusRestored(deletion: PendingDeletion): void {
  const selector = `[${ITEM_OF[deletion.kind]}="${CSS.escape(deletion.id)}"]`;
  const land = (): boolean => {
    const item = document.querySelector<HTMLElement>(selector);
    if (!item) return false;
    if (focusLost()) (item.querySelector<HTMLElement>('a[href], button:not([disabled])') ?? item).focus();
    return true;
  };
  if (land()) return;
  const watch = new MutationObserver(() => land() && watch.disconnect());
  watch.observe(document.body, { childList: true, subtree: true });
  // Not on this page (the list is elsewhere): focus stays where the page left it.
  window.setTimeout(() => watch.disconnect(), 5000);
}

/** Calls `react` when a deletion of `kind` was undone: its list shows the thing again. */
export function useUndone(kind: DeletableKind, react: () => void): void {
  const latest = useRef(react);
  latest.current = react;
  useEffect(() => {
    const listener = (event: Event) => {
      if ((event as CustomEvent<DeletableKind>).detail === kind) latest.current();
    };
    window.addEventListener(UNDONE, listener);
    return () => window.removeEventListener(UNDONE, listener);
  }, [kind]);
}

/** What the toast says went: "Deleted “Release plan”", "Revoked “notes_clear”". */
function whatWent(deletion: PendingDeletion): string {
  const verb = deletion.kind === 'grant' ? 'Revoked' : deletion.kind === 'connection' ? 'Disconnected' : 'Deleted';
  return `${verb} “${deletion.label}”`;
}

/** The toasts of every deletion still within its window, bottom of the page, newest last. */
export function UndoToasts() {
  const { epoch, refreshThreads } = useSession();
  const [pending, setPending] = useState<PendingDeletion[]>([]);
  const [now, setNow] = useState(() => Date.now());
  const [failure, setFailure] = useState<string | null>(null);

  const load = useCallback(() => {
    wire('GET', '/deletions', { schema: pendingList }).then(
      (list) => {
        setNow(Date.now());
        setPending(list.deletions);
      },
      () => undefined,
    );
  }, []);

  // The deletion asked here last: its toast's Undo takes the focus its delete button had.
  const [justDeleted, setJustDeleted] = useState<string | null>(null);
  useEffect(() => {
    load();
    const changed = (event: Event) => {
      const id = (event as CustomEvent<string | undefined>).detail;
      if (id) setJustDeleted(id);
      load();
    };
    window.addEventListener(CHANGED, changed);
    return () => window.removeEventListener(CHANGED, changed);
  }, [load, epoch]);
  useEffect(() => {
    if (!justDeleted || !pending.some((deletion) => deletion.id === justDeleted)) return;
    setJustDeleted(null);
    if (focusLost()) document.querySelector<HTMLElement>(`[data-deletion="${CSS.escape(justDeleted)}"] button`)?.focus();
  }, [justDeleted, pending]);

  const open = pending.filter((deletion) => Date.parse(deletion.undoUntil) > now);
  // The countdown: once a second while a toast shows.
  useEffect(() => {
    if (open.length === 0) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [open.length]);

  const undo = async (deletion: PendingDeletion) => {
    setFailure(null);
    try {
      await wire('POST', `/deletions/${encodeURIComponent(deletion.id)}/undo`, { body: {} });
      setPending((current) => current.filter((d) => d.id !== deletion.id));
      if (deletion.kind === 'thread') refreshThreads();
      window.dispatchEvent(new CustomEvent<DeletableKind>(UNDONE, { detail: deletion.kind }));
      focusRestored(deletion);
    } catch (caught) {
      setFailure(`${whatWent(deletion)} could not be undone: ${describeError(caught)}`);
      load();
    }
  };

  if (open.length === 0 && !failure) return null;
  return (
    <section className="undo-toasts" aria-label="Undo deletions">
      {failure ? (
        <div className="undo-toast failed" role="alert">
          <span className="undo-what">{failure}</span>
          <button type="button" className="button small secondary" onClick={() => setFailure(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {open.map((deletion) => {
        const seconds = Math.max(1, Math.ceil((Date.parse(deletion.undoUntil) - now) / 1000));
        return (
          <div className="undo-toast" key={deletion.id} data-deletion={deletion.id}>
            <span className="undo-what" role="status">
              {whatWent(deletion)}
            </span>
            <span className="undo-time" aria-hidden="true">
              {seconds} s
            </span>
            <button type="button" className="button small" onClick={() => void undo(deletion)} aria-label={`Undo: ${whatWent(deletion)}`}>
              Undo
            </button>
          </div>
        );
      })}
    </section>
  );
}
