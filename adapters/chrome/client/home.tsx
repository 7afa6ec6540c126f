import { useState } from 'react';
import { Composer } from './composer.js';
import { navigate } from './route.js';
import { useSession } from './session.js';
import { createThread } from './threads.js';
import { describeError } from './wire.js';
import { rememberFirstMessage } from './first-message.js';

const SUGGESTIONS: ReadonlyArray<{ label: string; text: string }> = [
  { label: 'Say hello', text: 'Hello! What can you do?' },
  { label: 'List my notes', text: '/call notes_list {}' },
  { label: 'Add a note', text: '/call notes_add {"text":"Buy milk"}' },
  { label: 'Build an app', text: '/app a reading list with a title, author and a done checkbox' },
];

/** The first screen: what Porter is, a few things to try, and a composer that starts a thread. */
export function Home() {
  const { user, refreshThreads } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  const start = async (text: string) => {
    setError(null);
    setStarting(true);
    try {
      const threadId = await createThread();
      rememberFirstMessage(threadId, text);
      refreshThreads();
      navigate({ name: 'thread', threadId });
    } catch (caught) {
      setError(describeError(caught));
      throw caught;
    } finally {
      setStarting(false);
    }
  };

  return (
    <div className="home">
      <div className="home-inner">
        <h1 className="home-title">{user ? `Hello, ${user}.` : 'Hello.'} What shall we do?</h1>
        <p className="home-lede">
          Porter talks with you, uses tools on your behalf, asks before it changes anything, and builds small apps when you need one.
        </p>
        <div className="suggestions">
          {SUGGESTIONS.map((s) => (
            <button
              key={s.label}
              type="button"
              className="suggestion"
              disabled={starting}
              onClick={() => void start(s.text).catch(() => undefined)}
            >
              <span className="suggestion-label">{s.label}</span>
              <span className="suggestion-text">{s.text}</span>
            </button>
          ))}
        </div>
        {error ? (
          <p className="banner error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <div className="chat-composer">
        <Composer onSend={start} disabled={starting} autoFocus placeholder="Message Porter" />
        <p className="composer-hint">
          <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
        </p>
      </div>
    </div>
  );
}
