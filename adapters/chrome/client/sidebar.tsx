import { useEffect, useState, type FormEvent } from 'react';
import { LOGO, NAME } from './chrome-config.js';
import { hrefOf, type Route } from './route.js';
import { DEMO_SIGN_IN, useSession } from './session.js';
import { useThreadList } from './thread-list-state.js';
import { titleOf } from './threads.js';
import { useLoad } from './use-load.js';
import { WIRE, approvalPage, describeError, threadPage, wire } from './wire.js';
import { useDeployment } from './deployment.js';
import { relativeTime } from './time.js';
import { usePageEvent } from './page-events.js';
import { Icon } from './icon.js';
import { Highlighted } from './highlighted.js';
import { UsageMeters } from './usage-meter.js';
import { ThemeSwitch } from './theme-switch.js';

export interface SidebarProps {
  readonly route: Route;
  /** Called when a link is followed, so the phone drawer can close. */
  onNavigate(): void;
}

/** Navigation: a new chat, the thread list (newest first), the other places, and who is signed in. */
export function Sidebar({ route, onNavigate }: SidebarProps) {
  const { threads, error, hasMore, loadMore } = useThreadList();
  const { epoch } = useSession();
  const pending = useLoad((signal) => wire('GET', '/approvals', { schema: approvalPage, signal }), [epoch], 10_000);
  // A decision made anywhere in this page shows at once; the poll catches those made elsewhere.
  usePageEvent('approvals-changed', pending.reload);
  const pendingCount = pending.data?.approvals.length ?? 0;
  const deployment = useDeployment();
  const [query, setQuery] = useState('');
  const [searched, setSearched] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setSearched(query.trim()), 250);
    return () => window.clearTimeout(timer);
  }, [query]);
  const found = useLoad(
    (signal) =>
      searched ? wire('GET', `/threads?limit=50&q=${encodeURIComponent(searched)}`, { schema: threadPage, signal }) : Promise.resolve(null),
    [searched, epoch],
  );
  const shown = searched ? found.data?.threads : threads;

  return (
    <nav className="sidebar" aria-label={NAME}>
      <div className="sidebar-top">
        <a className="brand" href={hrefOf({ name: 'home' })} onClick={onNavigate}>
          {LOGO ? (
            <img className="brand-mark logo" src={LOGO} alt="" />
          ) : (
            <span className="brand-mark" aria-hidden="true">
              {[...NAME][0]!.toUpperCase()}
            </span>
          )}
          <span>{NAME}</span>
        </a>
        <a className="button primary new-chat" href={hrefOf({ name: 'home' })} onClick={onNavigate}>
          <Icon d="M12 5v14M5 12h14" />
          New chat
        </a>
      </div>
      <ul className="nav-links">
        <NavLink route={route} to={{ name: 'approvals' }} label="Approvals" count={pendingCount} onNavigate={onNavigate} />
        <NavLink route={route} to={{ name: 'grants' }} label="Grants" onNavigate={onNavigate} />
        <NavLink route={route} to={{ name: 'memories' }} label="Memories" onNavigate={onNavigate} />
        <NavLink route={route} to={{ name: 'apps' }} label="Apps" onNavigate={onNavigate} />
        <NavLink route={route} to={{ name: 'automations' }} label="Automations" onNavigate={onNavigate} />
        <NavLink route={route} to={{ name: 'connections' }} label="Connections" onNavigate={onNavigate} />
        {deployment?.blocks.mcp ? (
          <li>
            <a className="nav-link" href={`${WIRE}/mcp/connect`} target="_blank" rel="noopener">
              <span>Connect an agent</span>
              <span className="external" aria-hidden="true">
                ↗
              </span>
            </a>
          </li>
        ) : null}
      </ul>
      <div className="thread-list" aria-label="Conversations">
        <h2 className="section-title">Conversations</h2>
        <div className="thread-search">
          <label className="visually-hidden" htmlFor="thread-search">
            Search conversations
          </label>
          <input
            id="thread-search"
            type="search"
            value={query}
            placeholder="Search conversations"
            autoComplete="off"
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => event.key === 'Escape' && setQuery('')}
          />
        </div>
        {searched && found.data && found.data.threads.length === 0 ? (
          <p className="sidebar-note" role="status">
            No conversation mentions “{searched}”.
          </p>
        ) : null}
        {!searched && threads === undefined && !error ? (
          <ul className="threads" aria-hidden="true">
            {[0, 1, 2].map((n) => (
              <li key={n} className="skeleton-line" />
            ))}
          </ul>
        ) : null}
        {!searched && error && threads === undefined ? <p className="sidebar-note">{describeError(error)}</p> : null}
        {!searched && threads && threads.length === 0 ? (
          <p className="sidebar-note">No conversations yet. Start one with New chat.</p>
        ) : null}
        {shown && shown.length > 0 ? (
          <ul className="threads" aria-label={searched ? `Conversations mentioning “${searched}”` : undefined}>
            {shown.map((thread) => {
              const current = route.name === 'thread' && route.threadId === thread.id;
              return (
                <li key={thread.id} data-thread-id={thread.id}>
                  <a
                    className={`thread-link${current ? ' current' : ''}`}
                    href={hrefOf({ name: 'thread', threadId: thread.id })}
                    aria-current={current ? 'page' : undefined}
                    onClick={onNavigate}
                  >
                    {thread.match ? (
                      <span className="thread-found">
                        <span className="thread-title">{titleOf(thread)}</span>
                        <span className="thread-snippet">
                          <Highlighted text={thread.match.snippet} highlights={thread.match.highlights} />
                        </span>
                      </span>
                    ) : (
                      <span className="thread-title">{titleOf(thread)}</span>
                    )}
                    <time className="thread-time" dateTime={thread.updatedAt}>
                      {relativeTime(thread.updatedAt)}
                    </time>
                  </a>
                </li>
              );
            })}
          </ul>
        ) : null}
        {hasMore && !searched ? (
          <button type="button" className="link-button load-more" onClick={loadMore}>
            Show older conversations
          </button>
        ) : null}
      </div>
      <UsageMeters />
      <ThemeSwitch />
      {DEMO_SIGN_IN ? <SignIn /> : null}
    </nav>
  );
}

function NavLink({ route, to, label, count, onNavigate }: { route: Route; to: Route; label: string; count?: number; onNavigate(): void }) {
  const current =
    route.name === to.name || (to.name === 'apps' && route.name === 'app') || (to.name === 'automations' && route.name === 'run');
  return (
    <li>
      <a
        className={`nav-link${current ? ' current' : ''}`}
        href={hrefOf(to)}
        aria-current={current ? 'page' : undefined}
        onClick={onNavigate}
      >
        <span>{label}</span>
        {count ? (
          <span className="count" aria-label={`${count} waiting`}>
            {count}
          </span>
        ) : null}
      </a>
    </li>
  );
}

/** The development host's sign-in: a name in the `porter_demo_user` cookie, anonymous without. */
function SignIn() {
  const { user, signIn, signOut } = useSession();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState('');

  if (user) {
    return (
      <div className="sign-in">
        <span className="avatar" aria-hidden="true">
          {user.slice(0, 1).toUpperCase()}
        </span>
        <span className="sign-in-name">
          Signed in as <strong data-testid="signed-in-as">{user}</strong>
        </span>
        <button type="button" className="link-button" onClick={signOut}>
          Sign out
        </button>
      </div>
    );
  }
  if (!editing) {
    return (
      <div className="sign-in">
        <span className="avatar anonymous" aria-hidden="true">
          ?
        </span>
        <span className="sign-in-name">Anonymous</span>
        <button type="button" className="link-button" onClick={() => setEditing(true)}>
          Sign in
        </button>
      </div>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    signIn(name);
    setEditing(false);
    setName('');
  };
  return (
    <form className="sign-in form" onSubmit={submit}>
      <label className="visually-hidden" htmlFor="demo-user">
        Your name
      </label>
      <input
        id="demo-user"
        autoFocus
        value={name}
        placeholder="Your name"
        onChange={(event) => setName(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && setEditing(false)}
        autoComplete="username"
      />
      <button type="submit" className="button small primary" disabled={!name.trim()}>
        Sign in
      </button>
    </form>
  );
}
