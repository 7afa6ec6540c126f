import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { wire } from './wire.js';

export const connection = z.object({ id: z.string(), toolkit: z.string(), status: z.string() });
export type Connection = z.output<typeof connection>;
export const connectionList = z.object({ connections: z.array(connection), nextCursor: z.string().nullable().optional() });
const initiation = z.object({ id: z.string(), redirectUrl: z.string() });

export interface Initiation {
  readonly id: string;
  readonly redirectUrl: string;
  readonly toolkit: string;
}

export const CONNECTION_STATUS: Readonly<Record<string, string>> = {
  initiated: 'Waiting for you to finish signing in',
  active: 'Connected',
  failed: 'Failed',
  expired: 'Expired',
};

export const toolkitList = z.object({ toolkits: z.array(z.object({ toolkit: z.string(), name: z.string() })) });

const POLL_MS = 2000;

/** The query parameter that marks the chrome loaded as a broker's callback, in the sign-in window. */
export const CALLBACK_MARK = 'porter-connection-callback';
/** Where the sign-in window tells the pages of this origin that it came back. */
const CHANNEL = 'porter-connections';

/** The sign-in windows this page opened, by connection: closed once the connection settles. */
const popups = new Map<string, Window>();

/**
 * Starts connecting an account: the broker owns the sign-in, so its page opens in a window of its
 * own and sends the person back to this chrome with `CALLBACK_MARK`, which says so to the page that
 * opened it and closes itself (`finishCallback`). The outcome is read from the wire, never from the
 * callback's query; the page that opened the window closes it too once the connection settles.
 */
export async function startConnection(toolkit: string): Promise<Initiation> {
  const callbackUrl = `${location.origin}${location.pathname}?${CALLBACK_MARK}=1#/connections`;
  const started = await wire('POST', '/connections/initiate', { body: { toolkit, callbackUrl }, schema: initiation });
  const popup = window.open('', '_blank', 'popup,width=520,height=680');
  if (popup) {
    // Still about:blank and ours: cut the way back before the broker's page loads in it, so that
    // page can never reach this one (no reverse tabnabbing); this page keeps its handle to close it.
    popup.opener = null;
    popup.location.href = started.redirectUrl;
    popups.set(started.id, popup);
  } else {
    window.open(started.redirectUrl, '_blank', 'noopener');
  }
  return { ...started, toolkit };
}

/**
 * In the sign-in window, back from the broker: tells the pages that started it (any tab of this
 * origin) to look at their connections now, then closes. True when this page is that callback.
 */
export function finishCallback(): boolean {
  const url = new URL(location.href);
  if (!url.searchParams.has(CALLBACK_MARK)) return false;
  try {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage({ kind: 'connection-callback' });
    channel.close();
  } catch {
    // No BroadcastChannel: the opener's poll finds the outcome on its own.
  }
  window.close();
  return true;
}

function closePopup(id: string): void {
  popups.get(id)?.close();
  popups.delete(id);
}

/** Polls a just-initiated connection until the broker reports how it ended; its status so far. */
export function useConnectionPoll(id: string | null, onSettled?: (status: string) => void): string {
  const [status, setStatus] = useState('initiated');
  const settled = useRef(onSettled);
  settled.current = onSettled;

  useEffect(() => {
    setStatus('initiated');
    if (!id) return;
    let stopped = false;
    const look = async () => {
      try {
        const view = await wire('GET', `/connections/${encodeURIComponent(id)}`, { schema: connection });
        if (stopped || view.status === 'initiated') return;
        stopped = true;
        window.clearInterval(timer);
        closePopup(id);
        setStatus(view.status);
        settled.current?.(view.status);
      } catch {
        // Try again on the next tick.
      }
    };
    const timer = window.setInterval(() => void look(), POLL_MS);
    // The sign-in window came back: look at once rather than at the next tick.
    let channel: BroadcastChannel | null = null;
    try {
      channel = new BroadcastChannel(CHANNEL);
      channel.onmessage = () => void look();
    } catch {
      channel = null;
    }
    return () => {
      stopped = true;
      window.clearInterval(timer);
      channel?.close();
    };
  }, [id]);

  return status;
}
