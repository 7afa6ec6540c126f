import { useState, type FormEvent } from 'react';
import { NAME } from './chrome-config.js';
import {
  CONNECTION_STATUS,
  connectionList,
  startConnection,
  toolkitList,
  useConnectionPoll,
  type Connection,
  type Initiation,
} from './connection-flow.js';
import { EmptyState, PageFrame } from './page.js';
import { useSession } from './session.js';
import { useLoad } from './use-load.js';
import { deleteWithUndo, useUndone } from './undo.js';
import { WireError, describeError, wire } from './wire.js';

/** Accounts Porter may use for this person: connect one (the broker signs them in), watch it settle. */
export function ConnectionsPage() {
  const { epoch } = useSession();
  const list = useLoad((signal) => wire('GET', '/connections', { schema: connectionList, signal }), [epoch]);
  useUndone('connection', list.reload);
  const [watching, setWatching] = useState<Initiation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const unavailable = list.error instanceof WireError && (list.error.code === 'not-implemented' || list.error.code === 'not-found');
  // What the broker can connect: picked from, never typed. Should the broker not say, a slug is typed.
  const offered = useLoad((signal) => wire('GET', '/connections/toolkits', { schema: toolkitList, signal }), [epoch]);
  const nameOf = (toolkit: string) => offered.data?.toolkits.find((t) => t.toolkit === toolkit)?.name ?? toolkit;

  const initiate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const toolkit = String(new FormData(form).get('toolkit') ?? '').trim();
    if (!toolkit) return;
    setError(null);
    try {
      setWatching(await startConnection(toolkit));
      form.reset();
      list.reload();
    } catch (caught) {
      setError(connectError(caught, nameOf(toolkit)));
    }
  };

  const remove = async (c: Connection) => {
    setError(null);
    try {
      await deleteWithUndo('connection', c.id);
    } catch (caught) {
      setError(describeError(caught));
    }
    list.reload();
  };

  return (
    <PageFrame
      title="Connections"
      lede={`Accounts ${NAME} can use for you, such as your calendar or your code host. You sign in with the provider; ${NAME} never sees your password.`}
    >
      {unavailable ? (
        <EmptyState
          title="No connection broker is set up"
          text="This deployment has no connections configured. A host turns them on with a broker such as Nango or Composio."
        />
      ) : (
        <form className="card form-card inline" onSubmit={(event) => void initiate(event)} aria-label="New connection">
          <label htmlFor="toolkit">Connect an account</label>
          <div className="edit-row">
            {offered.data && offered.data.toolkits.length > 0 ? (
              <select id="toolkit" name="toolkit" required defaultValue="">
                <option value="" disabled>
                  Choose a service…
                </option>
                {offered.data.toolkits.map((t) => (
                  <option key={t.toolkit} value={t.toolkit}>
                    {t.name}
                  </option>
                ))}
              </select>
            ) : (
              <input id="toolkit" name="toolkit" required placeholder="github, google-calendar, slack…" autoComplete="off" />
            )}
            <button type="submit" className="button primary">
              Connect
            </button>
          </div>
        </form>
      )}
      {error ? (
        <p className="banner error" role="alert">
          {error}
        </p>
      ) : null}
      {watching ? <Watch initiation={watching} onSettled={list.reload} /> : null}
      {list.error && !unavailable ? (
        <EmptyState title="Connections could not be loaded" text={describeError(list.error)} onRetry={list.reload} />
      ) : null}
      {list.data && list.data.connections.length === 0 ? <p className="muted">No accounts connected yet.</p> : null}
      <ul className="card-list">
        {list.data?.connections.map((c) => (
          <li key={c.id} className="card card-row" data-connection-id={c.id}>
            <div>
              <div className="card-title">{nameOf(c.toolkit)}</div>
              <div className="card-meta">
                <span className={`badge ${c.status === 'active' ? 'ok' : c.status === 'initiated' ? '' : 'warn'}`}>
                  {CONNECTION_STATUS[c.status] ?? c.status}
                </span>
              </div>
            </div>
            <button type="button" className="button small secondary" onClick={() => void remove(c)} aria-label={`Disconnect ${c.toolkit}`}>
              Disconnect
            </button>
          </li>
        ))}
      </ul>
    </PageFrame>
  );
}

/** Why connecting failed, in plain words, with what to do about it. */
function connectError(caught: unknown, name: string): string {
  if (caught instanceof WireError) {
    if (caught.code === 'validation')
      return `${name} can’t be connected here: it isn’t set up on this deployment’s connection broker. Choose a service from the list.`;
    if (caught.code === 'unavailable') return 'The connection service is not answering right now. Try again in a moment.';
    if (caught.code === 'not-implemented') return 'This deployment has no connection service set up.';
  }
  return `${name} could not be connected: ${describeError(caught)}`;
}

/** A just-initiated connection, watched until the broker reports how it ended. */
function Watch({ initiation: started, onSettled }: { initiation: Initiation; onSettled(): void }) {
  const status = useConnectionPoll(started.id, onSettled);

  return (
    <p
      className={`banner ${status === 'active' ? 'info' : status === 'initiated' ? 'info' : 'error'}`}
      role="status"
      data-connection-status={status}
    >
      {status === 'initiated' ? (
        <>
          Finish signing in with the provider in the window that opened.{' '}
          <a href={started.redirectUrl} target="_blank" rel="noopener noreferrer">
            Open it again
          </a>
        </>
      ) : status === 'active' ? (
        `${started.toolkit} is connected.`
      ) : (
        `Connecting ${started.toolkit} did not finish: ${(CONNECTION_STATUS[status] ?? status).toLowerCase()}. Try again.`
      )}
    </p>
  );
}
