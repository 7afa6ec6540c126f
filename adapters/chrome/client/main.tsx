import { createRoot } from 'react-dom/client';
import { SessionProvider } from './session.js';
import { ThreadListProvider } from './thread-list-state.js';
import { Shell } from './shell.js';
import { finishCallback } from './connection-flow.js';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root');
// In the sign-in window a broker sent back here: the page that opened it takes over; this one
// closes (and says so, should the browser keep it open).
if (finishCallback())
  createRoot(root).render(
    <main className="callback-page">
      <h1>Signed in</h1>
      <p>You can close this window; the page you came from has been updated.</p>
    </main>,
  );
else
  createRoot(root).render(
    <SessionProvider>
      <ThreadListProvider>
        <Shell />
      </ThreadListProvider>
    </SessionProvider>,
  );
