import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { NAME } from './chrome-config.js';
import { Chat, useChat } from '@ai-sdk/react';
import { isToolUIPart, type UIMessage } from 'ai';
import { porterChatTransport } from '../../client/porter-chat-transport.js';
import { Composer } from './composer.js';
import { MessageView, laterResultsOf } from './message-view.js';
import { useSession } from './session.js';
import { WIRE, describeError, type ApprovalView } from './wire.js';
import { loadThread } from './threads.js';
import { announceApprovalsChanged } from './page-events.js';

export interface ChatViewProps {
  readonly threadId: string;
  readonly initialMessages: UIMessage[];
  /** A message typed on the home page before this thread existed: sent once, on arrival. */
  readonly firstMessage?: string | undefined;
}

/**
 * A conversation: the AI SDK's `useChat` over Porter's own chat transport (`porter-runtime/client`),
 * which sends only what is new and carries on after approvals were decided. Opening or reloading a
 * thread rejoins a turn still in flight (`resume`); Stop stops it on the server.
 */
export function ChatView({ threadId, initialMessages, firstMessage }: ChatViewProps) {
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

  const onDecided = useCallback(
    (approvalId: string, approved: boolean) => {
      record(approvalId, approved);
      // Once every parked call of the answer has an answer, the turn carries on by itself.
      const stillWaiting = parkedCalls(chat.messages.at(-1)).filter((id) => !decided.current.has(id));
      if (stillWaiting.length === 0 && chat.status !== 'streaming' && chat.status !== 'submitted') void chat.sendMessage();
    },
    [chat, record],
  );

  const onSettledElsewhere = useCallback(
    async (view: ApprovalView) => {
      record(view.id, view.state !== 'denied' && view.state !== 'expired');
      // Another tab may be running the turn that executes it: rejoin, then read the thread as stored.
      setSyncing(true);
      try {
        if (chat.status === 'ready' || chat.status === 'error') await chat.resumeStream();
        const stored = await loadThread(threadId);
        if (chat.status === 'ready') chat.messages = stored.messages;
      } catch {
        // The card already shows the decision; the next look will catch up.
      } finally {
        setSyncing(false);
      }
    },
    [chat, threadId, record],
  );

  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [messages, status]);

  const laterResults = useMemo(() => laterResultsOf(messages), [messages]);
  const problem = error ? turnError(error) : null;
  const canContinue = !busy && !syncing && parkedInLast.length > 0 && waiting.length === 0;
  // The last exchange may be redone once nothing runs and nothing in it waits for an answer.
  const canRedo = !busy && !syncing && parkedInLast.length === 0;
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
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
              {...(canRedo && index === lastAnswer
                ? {
                    onRegenerate: () => {
                      pinned.current = true;
                      void regenerate();
                    },
                  }
                : {})}
              {...(canRedo && index === lastUser
                ? {
                    onEdit: async (text: string) => {
                      pinned.current = true;
                      await sendMessage({ text, messageId: message.id });
                    },
                  }
                : {})}
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
              <span>{problem.message}</span>
              <span className="banner-actions">
                {problem.rejoin ? (
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
      <div className="chat-composer">
        <Composer
          onSend={(text) => {
            pinned.current = true;
            return sendMessage({ text });
          }}
          onStop={() => void stop()}
          busy={busy}
          autoFocus
          placeholder={waiting.length > 0 ? 'Answer the request above, or write a message' : `Message ${NAME}`}
        />
        <p className="composer-hint">
          <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line{busy ? ' · Esc to stop' : ''}
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

/** The transport throws the response text; the wire's envelope says what went wrong. */
function turnError(error: Error): { message: string; rejoin: boolean } {
  try {
    const parsed = JSON.parse(error.message) as { error?: { code?: string; message?: string } };
    if (parsed.error?.message) return { message: parsed.error.message, rejoin: parsed.error.code === 'conflict' };
  } catch {
    // Not an envelope: a network failure or a stream that broke.
  }
  return { message: describeError(error), rejoin: false };
}
