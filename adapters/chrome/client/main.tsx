import { createRoot } from 'react-dom/client';
import { SessionProvider } from './session.js';
import { ThreadListProvider } from './thread-list-state.js';
import { Shell } from './shell.js';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root');
createRoot(root).render(
  <SessionProvider>
    <ThreadListProvider>
      <Shell />
    </ThreadListProvider>
  </SessionProvider>,
);
