// A host's chat page built with porter-runtime/react only, as its docs show it: bundled by
// test/e2e/react-thread.test.ts with esbuild and served beside the development host's wire. It runs
// under StrictMode in development mode, so React runs its effects twice, as `next dev` does.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PorterToolPart, isPorterToolPart, usePorterThread } from 'porter-runtime/react';

// `?explicit=<id>` tries a host that keeps the id itself (a route segment): the address is left alone.
// `?as=<user>` signs in with a header read at each request instead of the cookie.
const search = new URLSearchParams(location.search);
const explicit = search.get('explicit');
const as = search.get('as');

function Chat() {
  const chat = usePorterThread({
    wire: '/api/porter',
    ...(explicit ? { threadId: explicit, urlParam: false } : {}),
    ...(as ? { headers: () => ({ 'x-demo-user': as }) } : {}),
  });
  if (!chat.ready) return <p>{chat.error ? `Could not open the conversation: ${chat.error.message}` : 'Loading…'}</p>;
  return (
    <main data-thread-id={chat.threadId} data-status={chat.status}>
      {chat.notFoundThreadId ? <p role="status">That conversation was not found: this is a new one.</p> : null}
      <button type="button" onClick={() => void chat.newThread()}>
        New conversation
      </button>
      {chat.messages.map((message) => (
        <div key={message.id} data-role={message.role}>
          {message.parts.map((part, index) =>
            part.type === 'text' ? (
              <p key={index}>{part.text}</p>
            ) : isPorterToolPart(part) ? (
              <PorterToolPart
                key={index}
                part={part}
                onApprovalResponse={chat.addToolApprovalResponse}
                classNames={{ approve: 'button primary' }}
              />
            ) : null,
          )}
        </div>
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const input = event.currentTarget.elements.namedItem('text') as HTMLInputElement;
          void chat.sendMessage({ text: input.value });
          input.value = '';
        }}
      >
        <input name="text" aria-label="Message" /> <button type="submit">Send</button>
        {chat.status === 'streaming' || chat.status === 'submitted' ? (
          <button type="button" onClick={() => void chat.stop()}>
            Stop
          </button>
        ) : null}
      </form>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Chat />
  </StrictMode>,
);
