import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { copyText } from './clipboard.js';
import { Icon } from './icon.js';

/** Under a message: its versions (`children`), copy it, regenerate the last answer or edit the message. */
export function MessageActions({
  text,
  onRegenerate,
  onEdit,
  children,
}: {
  text: string;
  onRegenerate?: () => void;
  onEdit?: () => void;
  children?: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  if (!text && !onRegenerate && !onEdit && !children) return null;
  return (
    <div className="message-actions">
      {children}
      {text ? (
        <button
          type="button"
          className="message-action"
          aria-label={copied ? 'Copied' : 'Copy message'}
          title="Copy"
          onClick={() =>
            void copyText(text).then(() => {
              setCopied(true);
              window.setTimeout(() => setCopied(false), 1500);
            })
          }
        >
          <Icon d={copied ? 'M5 12l5 5 9-10' : 'M9 9h10v10H9zM5 15V5h10'} />
          <span className="message-action-label">{copied ? 'Copied' : 'Copy'}</span>
        </button>
      ) : null}
      {onEdit ? (
        <MessageAction
          name="Edit message"
          title="Edit and send again"
          d="M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4"
          label="Edit"
          onClick={onEdit}
        />
      ) : null}
      {onRegenerate ? (
        <MessageAction
          name="Regenerate answer"
          title="Answer again"
          d="M20 11a8 8 0 10-2.3 5.7M20 4v7h-7"
          label="Regenerate"
          onClick={onRegenerate}
        />
      ) : null}
    </div>
  );
}

/** One action under a message: an icon and a short label, with its full name for assistive technology. */
function MessageAction({ name, title, d, label, onClick }: { name: string; title: string; d: string; label: string; onClick(): void }) {
  return (
    <button type="button" className="message-action" aria-label={name} title={title} onClick={onClick}>
      <Icon d={d} />
      <span className="message-action-label">{label}</span>
    </button>
  );
}

/** The person's last message, opened for editing: send it again (it and its answer are replaced) or cancel. */
export function UserMessageEditor({
  initial,
  onSend,
  onCancel,
}: {
  initial: string;
  onSend(text: string): Promise<void>;
  onCancel(): void;
}) {
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const element = field.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!text.trim() || busy) return;
    setBusy(true);
    try {
      await onSend(text.trim());
    } finally {
      setBusy(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') onCancel();
    else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };
  return (
    <form className="message-editor" onSubmit={(event) => void submit(event)}>
      <label className="visually-hidden" htmlFor="edit-message">
        Your message
      </label>
      <textarea id="edit-message" ref={field} rows={3} value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} />
      <div className="message-editor-actions">
        <button type="button" className="button small secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button small primary" disabled={busy || !text.trim()}>
          Send
        </button>
      </div>
    </form>
  );
}
