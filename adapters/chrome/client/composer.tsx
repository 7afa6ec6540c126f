import { useLayoutEffect, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import type { AttachedFile } from './attachments.js';
import { NAME } from './chrome-config.js';
import { Icon } from './icon.js';

const PAPERCLIP = 'M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l8.6-8.6a3.3 3.3 0 0 1 4.7 4.7l-8.6 8.6a1.7 1.7 0 0 1-2.4-2.4l7.9-7.9';

/** The composer grows with its text up to this height, then scrolls (the spec's cap). */
export const COMPOSER_MAX_HEIGHT = 200;

export interface ComposerProps {
  /** Sends the text and the attached files; a rejection puts the text back so nothing typed is lost. */
  onSend(text: string, files: ReadonlyArray<AttachedFile>): Promise<void> | void;
  /**
   * Uploads a file the person attached (paperclip, drop or paste); absent, the composer takes text
   * only. A rejection is shown under the composer.
   */
  onAttach?(file: File): Promise<AttachedFile>;
  /** While an answer streams: the send button becomes a stop button, and Escape stops. */
  onStop?(): void;
  busy?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  placeholder?: string;
}

export function Composer({
  onSend,
  onAttach,
  onStop,
  busy = false,
  disabled = false,
  autoFocus = false,
  placeholder = `Message ${NAME}`,
}: ComposerProps) {
  const [text, setText] = useState('');
  const [files, setFiles] = useState<ReadonlyArray<AttachedFile>>([]);
  const [uploading, setUploading] = useState(0);
  const [attachError, setAttachError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);

  const attach = async (chosen: ReadonlyArray<File>) => {
    if (!onAttach || chosen.length === 0) return;
    setAttachError(null);
    setUploading((count) => count + chosen.length);
    for (const file of chosen) {
      try {
        const attached = await onAttach(file);
        setFiles((current) => [...current, attached]);
      } catch (error) {
        setAttachError(`${file.name || 'The file'}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        setUploading((count) => count - 1);
      }
    }
  };

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

  const canSend = !busy && !disabled && uploading === 0 && (text.trim().length > 0 || files.length > 0);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    const sent = text;
    const attached = files;
    setText('');
    setFiles([]);
    setAttachError(null);
    try {
      await onSend(sent, attached);
    } catch {
      setText((current) => current || sent);
      setFiles((current) => (current.length ? current : attached));
    }
    field.current?.focus();
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = [...event.clipboardData.files];
    if (!onAttach || pasted.length === 0) return;
    event.preventDefault();
    void attach(pasted);
  };

  const onDrop = (event: DragEvent<HTMLFormElement>) => {
    setDragging(false);
    if (!onAttach || event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    void attach([...event.dataTransfer.files]);
  };

  const onDragOver = (event: DragEvent<HTMLFormElement>) => {
    if (!onAttach || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setDragging(true);
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
    <form
      className={`composer${dragging ? ' dragging' : ''}`}
      onSubmit={submit}
      aria-label="Write a message"
      onDrop={onDrop}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
    >
      {onAttach ? (
        <>
          <button
            type="button"
            className="composer-attach"
            aria-label="Attach files"
            title="Attach files (or drop or paste them)"
            disabled={disabled}
            onClick={() => picker.current?.click()}
          >
            <Icon d={PAPERCLIP} />
          </button>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label="Files to attach"
            onChange={(event) => {
              const chosen = [...(event.target.files ?? [])];
              event.target.value = '';
              void attach(chosen);
            }}
          />
        </>
      ) : null}
      {files.length > 0 || uploading > 0 || attachError ? (
        <div className="composer-files" aria-live="polite">
          {files.map((file, index) => (
            <span key={file.url} className="composer-file">
              {file.filename}
              <button
                type="button"
                aria-label={`Remove ${file.filename}`}
                onClick={() => setFiles((current) => current.filter((_, at) => at !== index))}
              >
                ×
              </button>
            </span>
          ))}
          {uploading > 0 ? <span className="composer-file uploading">Uploading…</span> : null}
          {attachError ? (
            <span className="composer-file-error" role="alert">
              {attachError}
            </span>
          ) : null}
        </div>
      ) : null}
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
        onPaste={onPaste}
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
