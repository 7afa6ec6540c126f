import { useEffect, useId, useRef, type RefObject } from 'react';
import { Icon } from './icon.js';

/** Apple keyboards say ⌘ where others say Ctrl; the handlers accept either on every system. */
export const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';

/** The chrome's keyboard shortcuts, the common ones of chat products, as the help overlay lists them. */
export const SHORTCUTS: ReadonlyArray<{ readonly keys: ReadonlyArray<string>; readonly does: string }> = [
  { keys: [MOD, 'Shift', 'O'], does: 'New chat' },
  { keys: [MOD, 'K'], does: 'Search conversations' },
  { keys: ['Enter'], does: 'Send the message' },
  { keys: ['Shift', 'Enter'], does: 'New line in the message' },
  { keys: ['Esc'], does: 'Stop the answer' },
  { keys: [MOD, '/'], does: 'Show these shortcuts (or ?)' },
];

export interface ShortcutActions {
  newChat(): void;
  search(): void;
  help(): void;
}

/** Listens for the shortcuts on the whole page (Escape-to-stop lives with the conversation it stops). */
export function useShortcuts(actions: ShortcutActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const act = (action: () => void) => {
        event.preventDefault();
        action();
      };
      if (mod && event.shiftKey && key === 'o') act(latest.current.newChat);
      else if (mod && !event.shiftKey && key === 'k') act(latest.current.search);
      else if (mod && key === '/') act(latest.current.help);
      else if (!mod && event.key === '?' && !typing(event.target)) act(latest.current.help);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Whether a key press goes into a field, where `?` is a character and not a shortcut. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Puts the caret in the current page's message box once it has rendered (after a navigation). */
export function focusComposer(): void {
  requestAnimationFrame(() => document.querySelector<HTMLTextAreaElement>('#main .composer-field')?.focus());
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

/**
 * While `active`, Tab and Shift+Tab go round the elements of `container` only, and focus that
 * strays outside is brought back in: a modal's focus trap.
 */
export function useFocusTrap(container: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      const root = container.current;
      if (event.key !== 'Tab' || !root) return;
      const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0);
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items.at(-1)!;
      const at = document.activeElement;
      if (!root.contains(at)) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      } else if (event.shiftKey && at === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && at === last) {
        event.preventDefault();
        first.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [container, active]);
}

/**
 * The help overlay: a modal dialog listing the shortcuts. Focus moves to its Close button and stays
 * inside; Escape, Close or a click outside closes it, and focus returns where it was.
 */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useFocusTrap(dialog, open);
  useEffect(() => {
    const element = dialog.current;
    if (!element || !open) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    element.querySelector<HTMLButtonElement>('.dialog-close')?.focus();
    return () => {
      element.close();
      // The element that had focus may have gone (a page changed under the dialog): the page then.
      (before?.isConnected ? before : document.getElementById('main'))?.focus();
    };
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="shortcuts-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: closed through React's state, so the dialog and the page agree.
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => event.target === event.currentTarget && onClose()}
    >
      {open ? (
        <div className="dialog-body">
          <header className="dialog-head">
            <h2 id={titleId}>Keyboard shortcuts</h2>
            <button type="button" className="icon-button dialog-close" aria-label="Close" title="Close (Esc)" onClick={onClose}>
              <Icon d="M6 6l12 12M18 6L6 18" />
            </button>
          </header>
          <dl className="shortcut-list">
            {SHORTCUTS.map((shortcut) => (
              <div key={shortcut.does} className="shortcut">
                <dt>
                  {shortcut.keys.map((key, index) => (
                    <span key={key}>
                      {index > 0 ? '+' : null}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{shortcut.does}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </dialog>
  );
}
