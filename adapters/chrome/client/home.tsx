import { useState } from 'react';
import { z } from 'zod';
import { HOST_SUGGESTIONS, NAME } from './chrome-config.js';
import { useDeployment } from './deployment.js';
import { useLoad } from './use-load.js';
import { Composer } from './composer.js';
import { navigate } from './route.js';
import { useSession } from './session.js';
import { createThread } from './threads.js';
import { describeError, wire } from './wire.js';
import { rememberFirstMessage } from './first-message.js';
import { UsageWarning } from './usage-meter.js';

type Suggestion = { readonly label: string; readonly text: string };

const toolList = z.object({ tools: z.array(z.object({ name: z.string(), description: z.string(), risk: z.string() })) });

/**
 * What the home screen offers to try: the host's own list when it gave one (serveChrome's
 * `suggestions`); otherwise a greeting, the host's own tools in their own words (reading ones
 * first), and an app when this deployment builds them. Plain requests any model understands.
 */
function useSuggestions(): ReadonlyArray<Suggestion> | undefined {
  const deployment = useDeployment();
  const tools = useLoad((signal) => (HOST_SUGGESTIONS ? Promise.resolve(null) : wire('GET', '/tools', { schema: toolList, signal })), []);
  if (HOST_SUGGESTIONS) return HOST_SUGGESTIONS;
  if (!tools.data && !tools.error) return undefined;
  const fromTools = [...(tools.data?.tools ?? [])]
    .filter((tool) => !PORTERS_OWN.test(tool.name))
    .sort((a, b) => Number(a.risk !== 'read') - Number(b.risk !== 'read'))
    .slice(0, deployment?.blocks.apps ? 2 : 3)
    .map((tool) => ({ label: labelOf(tool.name), text: tool.description }));
  return [
    { label: 'Say hello', text: 'Hello! What can you do?' },
    ...fromTools,
    ...(deployment?.blocks.apps
      ? [{ label: 'Build an app', text: 'Build me a small app to keep a reading list, with a done checkbox.' }]
      : []),
  ];
}

/** Porter's own tools (memory, knowledge) are in every deployment: the home screen shows off the host's. */
const PORTERS_OWN = /^(memory_(save|search|forget)|knowledge_search)$/;

/** `notes_list` → "Notes list". */
function labelOf(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The first screen: what Porter is, a few things to try, and a composer that starts a thread. */
export function Home() {
  const { user, refreshThreads } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const suggestions = useSuggestions();

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
          {NAME} talks with you, uses tools on your behalf, asks before it changes anything, and builds small apps when you need one.
        </p>
        <div className="suggestions" aria-busy={suggestions === undefined}>
          {(suggestions ?? []).map((s) => (
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
        <UsageWarning />
        <Composer onSend={start} disabled={starting} autoFocus placeholder={`Message ${NAME}`} />
        <p className="composer-hint">
          <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
        </p>
      </div>
    </div>
  );
}
