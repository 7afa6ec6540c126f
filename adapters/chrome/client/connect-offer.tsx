import { useEffect, useState } from 'react';
import { NAME } from './chrome-config.js';
import { z } from 'zod';
import { CONNECTION_STATUS, connectionList, startConnection, useConnectionPoll, type Initiation } from './connection-flow.js';
import { hrefOf } from './route.js';
import { describeError, wire } from './wire.js';
import { InlineError } from './page.js';

/** The `data` of a `data-porter-connect` part (application/connections/connection-gate.ts). */
const connectPart = z.object({ toolkit: z.string().min(1), tool: z.string(), toolCallId: z.string() });

/**
 * A tool could not run because the person has not connected the account it acts through: offer to
 * connect it right here. The broker's sign-in opens in its own window; the offer polls until the
 * connection settles and then says so. The part stays with the thread, so a reload first checks
 * whether the account has been connected since.
 */
export function ConnectOffer({ data }: { data: unknown }) {
  const parsed = connectPart.safeParse(data);
  const toolkit = parsed.success ? parsed.data.toolkit : '';
  const [connected, setConnected] = useState(false);
  const [watching, setWatching] = useState<Initiation | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const status = useConnectionPoll(watching?.id ?? null);

  useEffect(() => {
    if (!toolkit) return;
    const controller = new AbortController();
    wire('GET', '/connections', { schema: connectionList, signal: controller.signal }).then(
      (list) => setConnected(list.connections.some((c) => c.toolkit === toolkit && c.status === 'active')),
      () => undefined,
    );
    return () => controller.abort();
  }, [toolkit]);

  if (!parsed.success) return null;
  const { tool } = parsed.data;

  const connect = async () => {
    setBusy(true);
    setError(null);
    try {
      setWatching(await startConnection(toolkit));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  const state = connected || status === 'active' ? 'active' : watching ? status : 'offered';
  return (
    <section className="connect-offer" data-toolkit={toolkit} data-connect-state={state} aria-label={`Connect ${toolkit}`}>
      <p className="connect-offer-text">
        <code>{tool}</code> acts through your <strong>{toolkit}</strong> account, which is not connected yet.
      </p>
      {state === 'active' ? (
        <p className="connect-offer-status ok" role="status">
          {toolkit} is connected. Ask again and {NAME} will use it.
        </p>
      ) : state === 'initiated' ? (
        <p className="connect-offer-status" role="status">
          Finish signing in with the provider in the window that opened.{' '}
          <a href={watching!.redirectUrl} target="_blank" rel="noopener noreferrer">
            Open it again
          </a>
        </p>
      ) : (
        <div className="connect-offer-actions">
          {state !== 'offered' ? (
            <span className="connect-offer-status bad" role="status">
              Connecting {toolkit} did not finish: {(CONNECTION_STATUS[state] ?? state).toLowerCase()}.
            </span>
          ) : null}
          <button type="button" className="button small primary" disabled={busy} onClick={() => void connect()}>
            {busy ? 'Starting…' : state === 'offered' ? `Connect ${toolkit}` : 'Try again'}
          </button>
          <a className="link-button" href={hrefOf({ name: 'connections' })}>
            Manage connections
          </a>
        </div>
      )}
      <InlineError error={error} />
    </section>
  );
}
