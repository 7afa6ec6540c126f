import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { NAME } from './chrome-config.js';
import { Icon } from './icon.js';

/** The composer grows with its text up to this height, then scrolls (the spec's cap). */
export const COMPOSER_MAX_HEIGHT = 200;

export interface ComposerProps {
  /** Sends the text; a rejection puts the text back so nothing typed is lost. */
  onSend(text: string): Promise<void> | void;
  /** While an answer streams: the send button becomes a stop button, and Escape stops. */
  onStop?(): void;
  busy?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  placeholder?: string;
}

export function Composer({
  onSend,
  onStop,
  busy = false,
  disabled = false,
  autoFocus = false,
  placeholder = `Message ${NAME}`,
}: ComposerProps) {
  const [text, setText] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);

  // Height follows the content: measured from scratch each time so it also shrinks.
  useLayoutEffect(() => {
    const element = field.current;
    if (!element) return;
    element.style.height = 'auto';
    const needed = element.scrollHeight;
    element.style.height = `${Math.min(needed, COMPOSER_MAX_HEIGHT)}px`;
    element.style.overflowY = needed > COMPOSER_MAX_HEIGHT ? 'auto' : 'hidden';
  }, [text]);

  useLayoutEffect(() => {
    if (autoFocus) field.current?.focus();
  }, [autoFocus]);

  const canSend = !busy && !disabled && text.trim().length > 0;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    const sent = text;
    setText('');
    try {
      await onSend(sent);
    } catch {
      setText((current) => current || sent);
    }
    field.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape' && busy && onStop) {
      event.preventDefault();
      onStop();
    }
  };

  return (
    <form className="composer" onSubmit={submit} aria-label="Write a message">
      <textarea
        ref={field}
        className="composer-field"
        rows={1}
        value={text}
        placeholder={placeholder}
        aria-label="Message"
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {busy && onStop ? (
        <button type="button" className="composer-button stop" onClick={onStop} aria-label="Stop answering" title="Stop (Esc)">
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <rect x="7" y="7" width="10" height="10" rx="2" />
          </svg>
        </button>
      ) : (
        <button type="submit" className="composer-button send" disabled={!canSend} aria-label="Send message" title="Send (Enter)">
          <Icon d="M12 19V5M5 12l7-7 7 7" />
        </button>
      )}
    </form>
  );
}
