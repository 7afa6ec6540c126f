import { useEffect, useRef, useState } from 'react';
import { NAME } from './chrome-config.js';
import { getToolName, isToolUIPart, type UIMessage } from 'ai';
import { RichText } from './rich-text.js';
import { Markdown } from './markdown.js';
import { MessageActions, UserMessageEditor } from './message-actions.js';
import { ToolProgress, progressOf } from './tool-progress.js';
import { ToolActivity, type ToolCallView } from './tool-activity.js';
import { AppViewPart } from './app-view.js';
import { ConnectOffer } from './connect-offer.js';
import { MemoryPart } from './memory-part.js';
import { Citations } from './citations.js';
import type { ApprovalView } from './wire.js';
import { VersionSwitcher, type ShownVersion } from './version-switcher.js';
import { InterruptedNote, interruptionOf } from './interrupted-note.js';
import { defined } from '../../../domain/defined.js';

type Part = UIMessage['parts'][number];

/** A call's final state that arrived in a later message (`data-porter-tool-result`). */
export interface LaterResult {
  readonly state: string;
  readonly output?: unknown;
  readonly errorText?: string;
}

export interface MessageViewProps {
  readonly message: UIMessage;
  /** Results of calls executed after approval, by tool call id, from any message of the thread. */
  readonly laterResults: ReadonlyMap<string, LaterResult>;
  /** True while this message is the one streaming in. */
  readonly streaming: boolean;
  onDecided?(approvalId: string, approved: boolean): void;
  onSettledElsewhere?(view: ApprovalView): void;
  /** On the last answer (or the person's last message, left unanswered), when no turn runs: ask for it again. */
  onRegenerate?(): void;
  /** On the person's last message, when no turn runs: send it again as edited. */
  onEdit?(text: string): Promise<void>;
  /** On a message regenerate or edit replaced: which version is shown, and how many there are. */
  versions?: ShownVersion | undefined;
  /** When no turn runs: show another version. */
  onShowVersion?: ((index: number) => void) | undefined;
}

export function MessageView(props: MessageViewProps) {
  const { message, laterResults, streaming, onDecided, onSettledElsewhere, onRegenerate, onEdit, versions, onShowVersion } = props;
  const switcher = versions ? <VersionSwitcher version={versions} onShow={onShowVersion} /> : null;
  const [editing, setEditing] = useState(false);
  // Editing cancelled, focus goes back to the Edit button (sent, the chat moves it to the composer).
  const said = useRef<HTMLElement>(null);
  const backToEdit = useRef(false);
  useEffect(() => {
    if (editing || !backToEdit.current) return;
    backToEdit.current = false;
    said.current?.querySelector<HTMLElement>('[aria-label="Edit message"]')?.focus();
  }, [editing]);
  // A turn that did not finish (the stored thread marks it): said once, here, unless a part says it already.
  const interruption = streaming ? null : interruptionOf(message);
  if (message.role === 'user') {
    // Said while it is still the last message and no turn answers it (a later answer makes it moot).
    const unanswered = onRegenerate ? interruption : null;
    if (editing && onEdit)
      return (
        <article className="message user editing" aria-label="Edit your message">
          <UserMessageEditor
            initial={plainText(message)}
            onCancel={() => {
              backToEdit.current = true;
              setEditing(false);
            }}
            onSend={async (text) => {
              await onEdit(text);
              setEditing(false);
            }}
          />
        </article>
      );
    return (
      <article className="message user" aria-label="You said" ref={said}>
        <div className="bubble">
          {message.parts.map((part, index) =>
            part.type === 'text' ? (
              <RichText key={index} text={part.text} />
            ) : part.type === 'file' ? (
              <AttachedFileView key={index} url={part.url} mediaType={part.mediaType} filename={part.filename} />
            ) : null,
          )}
        </div>
        <MessageActions text={plainText(message)} {...defined({ onEdit: onEdit ? () => setEditing(true) : undefined })}>
          {switcher}
        </MessageActions>
        {unanswered ? <InterruptedNote interruption={unanswered} kept={false} onRetry={onRegenerate} /> : null}
      </article>
    );
  }

  const approvals = approvalsOf(message.parts);
  const progress = progressOf(message.parts);
  const lastText = message.parts.map((p) => p.type).lastIndexOf('text');
  return (
    <article className="message assistant" aria-label={`${NAME} said`} aria-busy={streaming}>
      {message.parts.map((part, index) => {
        if (part.type === 'text') {
          if (!part.text && !streaming) return null;
          return (
            <div
              key={index}
              className={`assistant-text${streaming && index === lastText && part.state === 'streaming' ? ' streaming' : ''}`}
            >
              <Markdown text={part.text} streaming={streaming && part.state === 'streaming'} />
            </div>
          );
        }
        if (part.type === 'reasoning') {
          return part.text ? (
            <details key={index} className="reasoning">
              <summary>Thinking</summary>
              <RichText text={part.text} />
            </details>
          ) : null;
        }
        if (isToolUIPart(part)) {
          const later = laterResults.get(part.toolCallId);
          const settled = part.state === 'output-available' || part.state === 'output-error' || part.state === 'output-denied';
          const call: ToolCallView = {
            toolCallId: part.toolCallId,
            tool: getToolName(part),
            state: !settled && later ? later.state : part.state,
            input: part.input,
            output: !settled && later ? later.output : 'output' in part ? part.output : undefined,
            errorText: !settled && later ? later.errorText : 'errorText' in part ? part.errorText : undefined,
            approval:
              approvals.get(part.toolCallId) ??
              (part.approval ? { approvalId: part.approval.id, risk: 'write', preview: `Run ${getToolName(part)}` } : undefined),
          };
          return (
            <ToolActivity
              key={part.toolCallId}
              call={call}
              live={streaming}
              {...defined({ onDecided })}
              {...defined({ onSettledElsewhere })}
            >
              {live(call.state, streaming) ? <ToolProgress toolCallId={part.toolCallId} progress={progress.get(part.toolCallId)} /> : null}
            </ToolActivity>
          );
        }
        if (part.type === 'data-porter-view')
          return <AppViewPart key={(part as { id?: string }).id ?? index} data={(part as { data: unknown }).data} />;
        // A tool that acts through an account the person has not connected: offer to connect it here.
        if (part.type === 'data-porter-connect')
          return <ConnectOffer key={(part as { id?: string }).id ?? index} data={(part as { data: unknown }).data} />;
        // What the agent remembered or forgot about the person: said where it happened.
        if (part.type === 'data-porter-memory')
          return <MemoryPart key={(part as { id?: string }).id ?? index} data={(part as { data: unknown }).data} />;
        if (part.type === 'data-porter-error') {
          const data = (part as { data?: { message?: unknown } }).data;
          // Red, its cause said, and (on the last answer) the action that fixes it.
          return (
            <div key={index} className="message-error" role="alert">
              <p>
                <strong className="error-cause">Not finished.</strong>{' '}
                {typeof data?.message === 'string' ? data.message : 'Something went wrong while answering.'}
                {producedAnything(message) ? ' What it wrote before is kept above.' : ''}
              </p>
              {onRegenerate ? (
                <button type="button" className="button small primary" onClick={onRegenerate}>
                  Retry
                </button>
              ) : null}
            </div>
          );
        }
        return null;
      })}
      {interruption && !message.parts.some((part) => part.type === 'data-porter-error') ? (
        <InterruptedNote interruption={interruption} kept={producedAnything(message)} onRetry={onRegenerate} />
      ) : null}
      <Citations parts={message.parts} />
      {!streaming ? (
        <MessageActions text={plainText(message)} {...defined({ onRegenerate })}>
          {switcher}
        </MessageActions>
      ) : null}
    </article>
  );
}

/** Whether a call is still under way in a turn that is streaming (its progress is worth showing). */
function live(state: string, streaming: boolean): boolean {
  return streaming && (state === 'input-available' || state === 'input-streaming' || state === 'approval-responded');
}

/** Whether an answer holds anything besides its error: text, a tool call, a view. */
function producedAnything(message: UIMessage): boolean {
  return message.parts.some(
    (part) => (part.type === 'text' && part.text.trim() !== '') || isToolUIPart(part) || part.type === 'data-porter-view',
  );
}

/** The text a person would copy: the message's text parts, one paragraph each. */
function plainText(message: UIMessage): string {
  return message.parts.flatMap((part) => (part.type === 'text' && part.text.trim() ? [part.text.trim()] : [])).join('\n\n');
}

/** `data-porter-approval` parts of a message, by the tool call they belong to. */
function approvalsOf(parts: ReadonlyArray<Part>): Map<string, NonNullable<ToolCallView['approval']>> {
  const found = new Map<string, NonNullable<ToolCallView['approval']>>();
  for (const part of parts) {
    if (part.type !== 'data-porter-approval') continue;
    const data = (part as { data?: Record<string, unknown> }).data ?? {};
    if (typeof data.toolCallId !== 'string' || typeof data.approvalId !== 'string') continue;
    found.set(data.toolCallId, {
      approvalId: data.approvalId,
      risk: typeof data.risk === 'string' ? data.risk : 'write',
      preview: typeof data.preview === 'string' ? data.preview : 'Run a tool',
      ...defined({ egress: typeof data.egress === 'boolean' ? data.egress : undefined }),
    });
  }
  return found;
}

/** Every `data-porter-tool-result` of the thread: calls that ran after approval, shown on the call. */
export function laterResultsOf(messages: ReadonlyArray<UIMessage>): Map<string, LaterResult> {
  const results = new Map<string, LaterResult>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'data-porter-tool-result') continue;
      const data = (part as { data?: Record<string, unknown> }).data ?? {};
      if (typeof data.toolCallId !== 'string' || typeof data.state !== 'string') continue;
      results.set(data.toolCallId, {
        state: data.state,
        ...defined({ output: data.output, errorText: typeof data.errorText === 'string' ? data.errorText : undefined }),
      });
    }
  }
  return results;
}

/**
 * A file the person attached: an image shown (read from the wire, which answers only its owner), any
 * other file as a link that opens it.
 */
function AttachedFileView({ url, mediaType, filename }: { url: string; mediaType: string; filename?: string | undefined }) {
  const name = filename ?? mediaType;
  if (mediaType.startsWith('image/') && !url.startsWith('data:'))
    return (
      <a className="file-attachment image" href={url} target="_blank" rel="noreferrer">
        <img src={url} alt={name} loading="lazy" />
      </a>
    );
  return (
    <a className="file-chip" href={url} target="_blank" rel="noreferrer" aria-label={`Open ${name}`}>
      {name}
    </a>
  );
}
