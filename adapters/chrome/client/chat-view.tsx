import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { NAME } from './chrome-config.js';
import { Chat, useChat } from '@ai-sdk/react';
import { isToolUIPart, type UIMessage } from 'ai';
import { porterChatTransport } from '../../client/porter-chat-transport.js';
import { Composer } from './composer.js';
import { uploadFile } from './attachments.js';
import { MessageView, laterResultsOf } from './message-view.js';
import { interruptionOf } from './interrupted-note.js';
import { useSession } from './session.js';
import { WIRE, describeError, type ApprovalView } from './wire.js';
import { loadThread, showVersion } from './threads.js';
import type { ShownVersion } from './version-switcher.js';
import { announceApprovalsChanged } from './page-events.js';
import { MOD, focusComposer } from './shortcuts.js';
import { JumpToLatest } from './jump-to-latest.js';
import { UsageWarning } from './usage-meter.js';
import { defined } from '../../../domain/defined.js';

export interface ChatViewProps {
  readonly threadId: string;
  readonly initialMessages: UIMessage[];
  /** The shown messages that have other versions, by id, as the thread was loaded. */
  readonly initialVersions?: ReadonlyMap<string, ShownVersion>;
  /** A message typed on the home page before this thread existed: sent once, on arrival. */
  readonly firstMessage?: string | undefined;
}

/**
 * A conversation: the AI SDK's `useChat` over Porter's own chat transport (`porter-runtime/client`),
 * which sends only what is new and carries on after approvals were decided. Opening or reloading a
 * thread rejoins a turn still in flight (`resume`); Stop stops it on the server.
 */
export function ChatView({ threadId, initialMessages, initialVersions, firstMessage }: ChatViewProps) {
  const { refreshThreads } = useSession();
  const chat = useMemo(
    () =>
      new Chat<UIMessage>({
        id: threadId,
        messages: initialMessages,
        transport: porterChatTransport({ wire: WIRE }),
        onFinish: () => refreshThreads(),
      }),
    // One Chat per thread: later renders must not replace it (the view is keyed by thread).
    [threadId],
  );
  const { messages, status, error, sendMessage, regenerate, stop, clearError, resumeStream, setMessages } = useChat({
    chat,
    resume: firstMessage === undefined,
  });
  const [decisions, setDecisions] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [syncing, setSyncing] = useState(false);
  const busy = status === 'submitted' || status === 'streaming';
  const [versions, setVersions] = useState<ReadonlyMap<string, ShownVersion>>(initialVersions ?? new Map());
  const [versionError, setVersionError] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);

  // A turn ended: regenerate or edit may have kept a version. The thread as stored says which
  // messages have versions, under the ids the server keeps (the person's message sent here had the
  // page's own id until then).
  const wasBusy = useRef(false);
  useEffect(() => {
    if (busy) wasBusy.current = true;
    if (status !== 'ready' || !wasBusy.current) return;
    wasBusy.current = false;
    void loadThread(threadId).then(
      (stored) => {
        if (chat.status !== 'ready') return;
        if (stored.versions.size > 0) chat.messages = stored.messages;
        setVersions(stored.versions);
      },
      () => undefined,
    );
  }, [busy, status, chat, threadId]);

  // After a switch, focus stays on the switcher that did it (its message was replaced by the version shown).
  const switched = useRef<{ at: number; control: string } | null>(null);
  const showVersionOf = useCallback(
    (messageId: string, at: number) => async (index: number) => {
      const control = document.activeElement?.getAttribute('aria-label') === 'Previous version' ? 'Previous version' : 'Next version';
      setSwitching(true);
      setVersionError(null);
      try {
        const stored = await showVersion(threadId, messageId, index);
        switched.current = { at, control };
        chat.messages = stored.messages;
        setVersions(stored.versions);
      } catch (caught) {
        setVersionError(describeError(caught));
      } finally {
        setSwitching(false);
      }
    },
    [chat, threadId],
  );
  useLayoutEffect(() => {
    const target = switched.current;
    if (!target) return;
    switched.current = null;
    const shown = scroller.current?.querySelectorAll('.chat-column > article.message')[target.at];
    shown?.querySelector<HTMLElement>(`.version-switcher [aria-label="${target.control}"]`)?.focus();
  }, [messages, versions]);

  // The server titles a thread when its first turn starts: read the list again once the answer flows.
  useEffect(() => {
    if (status === 'streaming') refreshThreads();
  }, [status, refreshThreads]);

  const sentFirst = useRef(false);
  useEffect(() => {
    if (firstMessage === undefined || sentFirst.current) return;
    sentFirst.current = true;
    void sendMessage({ text: firstMessage });
  }, [firstMessage, sendMessage]);

  // Calls parked in the latest answer that nobody has decided yet (here or elsewhere).
  const waiting = useMemo(() => undecidedCalls(messages, decisions), [messages, decisions]);
  const parkedInLast = useMemo(() => parkedCalls(messages.at(-1)), [messages]);
  // A call parked by this answer waits in Approvals too: the badge counts it at once.
  const parkedKey = parkedInLast.join(' ');
  useEffect(() => {
    if (parkedKey) announceApprovalsChanged();
  }, [parkedKey]);

  // Decisions are also kept in a ref: two answers given in quick succession must both be seen.
  const decided = useRef(new Map<string, boolean>());
  const record = useCallback((approvalId: string, approved: boolean) => {
    decided.current.set(approvalId, approved);
    setDecisions(new Map(decided.current));
  }, []);

  // A continuation this view sent: should another view have carried the turn on first (the wire
  // answers 409), this one follows that turn instead of offering to rejoin it.
  const carrying = useRef(false);
  const carryOn = useCallback(() => {
    carrying.current = true;
    void chat.sendMessage();
  }, [chat]);
  useEffect(() => {
    if (!error || !carrying.current) return;
    carrying.current = false;
    if (turnError(error).action !== 'rejoin') return;
    clearError();
    void resumeStream();
  }, [error, clearError, resumeStream]);
  useEffect(() => {
    if (status === 'ready') carrying.current = false;
  }, [status]);
  // Calls decided while their answer was still streaming (its last words, its title) could not carry
  // the turn on then: once the answer has ended, it carries on by itself.
  useEffect(() => {
    if (status !== 'ready' || carrying.current) return;
    const parked = parkedCalls(chat.messages.at(-1));
    if (parked.length > 0 && parked.every((id) => decided.current.has(id))) carryOn();
  }, [status, carryOn, chat]);

  // The call last decided here: when its card gives way to the call's result, focus follows to the
  // call (its status), not to the top of the page.
  const decidedCall = useRef<string | null>(null);
  useEffect(() => {
    const approvalId = decidedCall.current;
    const at = document.activeElement;
    if (!approvalId || (at && at !== document.body && at.isConnected)) return;
    document.querySelector<HTMLElement>(`.tool[data-approval="${CSS.escape(approvalId)}"] .tool-head`)?.focus();
  }, [messages]);

  const onDecided = useCallback(
    (approvalId: string, approved: boolean) => {
      decidedCall.current = approvalId;
      record(approvalId, approved);
      // Once every parked call of the answer has an answer, the turn carries on by itself.
      const stillWaiting = parkedCalls(chat.messages.at(-1)).filter((id) => !decided.current.has(id));
      if (stillWaiting.length === 0 && chat.status !== 'streaming' && chat.status !== 'submitted') carryOn();
    },
    [carryOn, chat, record],
  );

  const onSettledElsewhere = useCallback(
    async (view: ApprovalView) => {
      record(view.id, view.state !== 'denied' && view.state !== 'expired');
      // Another tab may be running the turn that executes it: rejoin, then read the thread as stored.
      setSyncing(true);
      try {
        if (chat.status === 'ready' || chat.status === 'error') await chat.resumeStream();
        const stored = await loadThread(threadId);
        if (chat.status !== 'ready') return;
        chat.messages = stored.messages;
        // Nobody carried the turn on (the decision came from the Approvals page, another device, an
        // agent): once every call it parked has an answer, this view carries it on by itself. A call
        // the stored answer no longer parks was already run by whoever went on.
        const parked = parkedCalls(stored.messages.at(-1));
        if (parked.length > 0 && parked.every((id) => decided.current.has(id))) carryOn();
      } catch {
        // The card already shows the decision; the next look will catch up.
      } finally {
        setSyncing(false);
      }
    },
    [carryOn, chat, threadId, record],
  );

  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [messages, status]);

  // Escape stops the answer from anywhere in the page (the composer, a message, the page itself),
  // unless something open (a dialog, the phone menu, an editor) took it first.
  useEffect(() => {
    if (!busy) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open], .drawer-open')) return;
      event.preventDefault();
      void stop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, stop]);

  const retry = () => {
    pinned.current = true;
    clearError();
    // The person asked for the answer again: the caret waits in the message box, where Esc stops it.
    focusComposer();
    void regenerate();
  };

  const laterResults = useMemo(() => laterResultsOf(messages), [messages]);
  // An error the answer itself carries (`data-porter-error`) is shown there, with Retry; the banner
  // is for the others (the request refused, the connection lost).
  const problem = error && !carriesError(messages.at(-1)) ? turnError(error) : null;
  const canContinue = !busy && !syncing && parkedInLast.length > 0 && waiting.length === 0;
  // The last exchange may be redone once nothing runs and nothing in it waits for an answer.
  const canRedo = !busy && !syncing && parkedInLast.length === 0;
  const lastAnswer = messages.at(-1)?.role === 'assistant' ? messages.length - 1 : -1;

  return (
    <div className="chat">
      <div
        className="chat-scroll"
        ref={scroller}
        onScroll={(event) => {
          const element = event.currentTarget;
          pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
        }}
      >
        <div className="chat-column" role="log" aria-live="polite" aria-relevant="additions text">
          {messages.length === 0 && !busy ? <p className="chat-empty">Say something to start. {NAME} answers here.</p> : null}
          {messages.map((message, index) => (
            <MessageView
              key={message.id}
              message={message}
              laterResults={laterResults}
              streaming={busy && index === messages.length - 1 && message.role === 'assistant'}
              onDecided={onDecided}
              onSettledElsewhere={onSettledElsewhere}
              {...defined({
                onRegenerate:
                  canRedo && (index === lastAnswer || (index === messages.length - 1 && interruptionOf(message))) ? retry : undefined,
              })}
              versions={versions.get(message.id)}
              onShowVersion={canRedo && !switching ? showVersionOf(message.id, index) : undefined}
              {...defined({
                onEdit:
                  canRedo && message.role === 'user'
                    ? async (text: string) => {
                        pinned.current = true;
                        focusComposer();
                        await sendMessage({ text, messageId: message.id });
                      }
                    : undefined,
              })}
            />
          ))}
          {status === 'submitted' && messages.at(-1)?.role !== 'assistant' ? (
            <div className="message assistant" aria-label={`${NAME} is thinking`}>
              <span className="typing" aria-hidden="true">
                <span />
                <span />
                <span />
              </span>
              <span className="visually-hidden">{NAME} is thinking…</span>
            </div>
          ) : null}
          {versionError ? (
            <p className="banner error" role="alert">
              <span>
                <strong className="error-cause">The version could not be shown.</strong> {versionError}
              </span>
            </p>
          ) : null}
          {canContinue ? (
            <div className="continue-bar">
              <span>Every request here has an answer.</span>
              <button type="button" className="button primary small" onClick={() => void sendMessage()}>
                Continue
              </button>
            </div>
          ) : null}
          {problem ? (
            <div className="banner error" role="alert">
              <span>
                <strong className="error-cause">{problem.cause}</strong> {problem.message}
              </span>
              <span className="banner-actions">
                {problem.action === 'retry' ? (
                  <button type="button" className="button small primary" onClick={retry}>
                    Retry
                  </button>
                ) : null}
                {problem.action === 'sign-in' ? (
                  <button type="button" className="button small primary" onClick={signInAgain}>
                    Sign in
                  </button>
                ) : null}
                {problem.action === 'rejoin' ? (
                  <button
                    type="button"
                    className="button small"
                    onClick={() => {
                      clearError();
                      void resumeStream();
                    }}
                  >
                    Rejoin
                  </button>
                ) : null}
                <button
                  type="button"
                  className="button small secondary"
                  onClick={() => {
                    clearError();
                    void loadThread(threadId).then(
                      (stored) => setMessages(stored.messages),
                      () => undefined,
                    );
                  }}
                >
                  Dismiss
                </button>
              </span>
            </div>
          ) : null}
        </div>
      </div>
      <JumpToLatest
        scroller={scroller}
        onJump={() => {
          pinned.current = true;
          focusComposer();
        }}
      />
      <div className="chat-composer">
        <UsageWarning />
        <Composer
          onSend={(text, files) => {
            pinned.current = true;
            return files.length > 0 ? sendMessage({ text, files: [...files] }) : sendMessage({ text });
          }}
          onAttach={(file) => uploadFile(threadId, file)}
          onStop={() => void stop()}
          busy={busy}
          autoFocus
          placeholder={waiting.length > 0 ? 'Answer the request above, or write a message' : `Message ${NAME}`}
        />
        <p className="composer-hint">
          <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line{busy ? ' · Esc to stop' : ''} · <kbd>{MOD}</kbd>+
          <kbd>/</kbd> for shortcuts
        </p>
      </div>
    </div>
  );
}

function parkedCalls(message: UIMessage | undefined): string[] {
  if (!message || message.role !== 'assistant') return [];
  return message.parts.flatMap((part) =>
    isToolUIPart(part) && part.state === 'approval-requested' && part.approval ? [part.approval.id] : [],
  );
}

function undecidedCalls(messages: ReadonlyArray<UIMessage>, decisions: ReadonlyMap<string, boolean>): string[] {
  return parkedCalls(messages.at(-1)).filter((id) => !decisions.has(id));
}

/** Whether an answer says itself what went wrong (a `data-porter-error` part). */
function carriesError(message: UIMessage | undefined): boolean {
  return message?.role === 'assistant' && message.parts.some((part) => part.type === 'data-porter-error');
}

/** What a failed turn's banner says (its cause first) and the action that fixes it. */
interface TurnProblem {
  readonly cause: string;
  readonly message: string;
  readonly action: 'retry' | 'rejoin' | 'sign-in';
}

/** The transport throws the response text; the wire's envelope says what went wrong. */
function turnError(error: Error): TurnProblem {
  try {
    const parsed = JSON.parse(error.message) as { error?: { code?: string; message?: string } };
    const code = parsed.error?.code;
    const message = parsed.error?.message;
    if (message) {
      if (code === 'conflict') return { cause: 'An answer is already being written.', message, action: 'rejoin' };
      if (code === 'unauthorized') return { cause: 'You are signed out.', message, action: 'sign-in' };
      if (code === 'forbidden') return { cause: 'Not allowed.', message, action: 'sign-in' };
      if (code === 'rate-limited') return { cause: 'A usage limit was reached.', message, action: 'retry' };
      return { cause: 'The answer failed.', message, action: 'retry' };
    }
  } catch {
    // Not an envelope: a network failure or a stream that broke.
  }
  if (error instanceof TypeError) return { cause: 'The connection was lost.', message: 'Check the network, then retry.', action: 'retry' };
  return { cause: 'The answer failed.', message: describeError(error), action: 'retry' };
}

/** The development host's own sign-in control when it has one; otherwise the host's sign-in, by reloading. */
function signInAgain(): void {
  const control = [...document.querySelectorAll<HTMLButtonElement>('.sign-in button')].find((b) => b.textContent === 'Sign in');
  if (control) control.click();
  else location.reload();
}
