import { useEffect, useRef, useState, type ReactElement } from 'react';
import { NAME } from './chrome-config.js';
import { Sidebar } from './sidebar.js';
import { useRoute, type Route } from './route.js';
import { Home } from './home.js';
import { Conversation } from './conversation.js';
import { ApprovalsPage } from './approvals-page.js';
import { AppsPage, AppPage } from './apps-page.js';
import { AutomationsPage } from './automations-page.js';
import { ConnectionsPage } from './connections-page.js';
import { GrantsPage } from './grants-page.js';
import { MemoriesPage } from './memories-page.js';
import { RunPage } from './run-page.js';
import { Icon } from './icon.js';
import { ShortcutsDialog, focusComposer, useFocusTrap, useShortcuts } from './shortcuts.js';
import { navigate } from './route.js';
import { UndoToasts } from './undo.js';

/**
 * The frame: the sidebar beside the current page on wide screens; on a phone the sidebar is a
 * drawer behind a menu button (focus kept inside while open; Escape or a followed link closes it,
 * focus returns to the button). The keyboard shortcuts, and their help overlay, work on every page.
 */
export function Shell() {
  const route = useRoute();
  const [drawer, setDrawer] = useState(false);
  const [help, setHelp] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawerRef = useRef<HTMLDivElement>(null);
  // What the drawer focuses as it opens: its first link, or the search field (Ctrl+K on a phone).
  const drawerFocus = useRef('a, button');
  useFocusTrap(drawerRef, drawer);
  // Closed by Escape or the scrim, the drawer hands focus back to the menu button (once the page
  // behind it is no longer inert).
  const backToMenu = useRef(false);
  const dismissDrawer = () => {
    backToMenu.current = true;
    setDrawer(false);
  };

  useEffect(() => {
    if (!drawer) {
      if (backToMenu.current) menuButton.current?.focus();
      backToMenu.current = false;
      return;
    }
    drawerRef.current?.querySelector<HTMLElement>(drawerFocus.current)?.focus();
    drawerFocus.current = 'a, button';
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        dismissDrawer();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawer]);

  useShortcuts({
    newChat: () => {
      setHelp(false);
      setDrawer(false);
      navigate({ name: 'home' });
      focusComposer();
    },
    search: () => {
      setHelp(false);
      const field = document.getElementById('thread-search');
      // On a phone the field is in the closed drawer: open it with the field focused.
      if (menuButton.current?.offsetParent && !drawer) {
        drawerFocus.current = '#thread-search';
        setDrawer(true);
      } else field?.focus();
    },
    help: () => setHelp(true),
  });

  useEffect(() => {
    document.title = route.name === 'home' ? NAME : `${pageOf(route).title} · ${NAME}`;
  }, [route]);

  return (
    <div className={`shell${drawer ? ' drawer-open' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar" inert={drawer}>
        <button
          ref={menuButton}
          type="button"
          className="icon-button"
          aria-label="Open navigation"
          aria-expanded={drawer}
          aria-controls="sidebar"
          onClick={() => setDrawer(true)}
        >
          <Icon d="M4 7h16M4 12h16M4 17h16" />
        </button>
        <span className="topbar-title">{NAME}</span>
        <a className="icon-button" href="#/" aria-label="New chat" title="New chat (Ctrl+Shift+O)">
          <Icon d="M12 5v14M5 12h14" />
        </a>
      </header>
      <div className="scrim" hidden={!drawer} onClick={dismissDrawer} />
      <div className="sidebar-frame" id="sidebar" ref={drawerRef}>
        <Sidebar route={route} onNavigate={() => setDrawer(false)} />
      </div>
      <main className="main" id="main" tabIndex={-1} inert={drawer}>
        {pageOf(route).page(route)}
      </main>
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
      <UndoToasts />
    </div>
  );
}

/**
 * Each route's page, and its name in the window's title. A page about one thing (a thread, an app, a
 * run) is keyed by its id, so moving to another starts it afresh.
 */
const PAGES: { readonly [N in Route['name']]: { title: string; page(route: Extract<Route, { name: N }>): ReactElement } } = {
  home: { title: 'Home', page: () => <Home /> },
  thread: { title: 'Conversation', page: (route) => <Conversation key={route.threadId} threadId={route.threadId} /> },
  approvals: { title: 'Approvals', page: () => <ApprovalsPage /> },
  apps: { title: 'Apps', page: () => <AppsPage /> },
  app: { title: 'App', page: (route) => <AppPage key={route.appId} appId={route.appId} /> },
  grants: { title: 'Grants', page: () => <GrantsPage /> },
  memories: { title: 'Memories', page: () => <MemoriesPage /> },
  automations: { title: 'Automations', page: () => <AutomationsPage /> },
  run: { title: 'Run', page: (route) => <RunPage key={route.runId} runId={route.runId} /> },
  connections: { title: 'Connections', page: () => <ConnectionsPage /> },
};

function pageOf(route: Route): { title: string; page(route: Route): ReactElement } {
  // TypeScript cannot relate the entry to the route's own variant; PAGES' type checks each pair.
  return PAGES[route.name] as { title: string; page(route: Route): ReactElement };
}
