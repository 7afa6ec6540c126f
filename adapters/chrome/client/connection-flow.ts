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

const POLL_MS = 2000;

/**
 * Starts connecting an account: the broker owns the sign-in, so its page opens in a window of its
 * own and sends the person back to the connections page. The outcome is read by polling, never
 * from the callback.
 */
export async function startConnection(toolkit: string): Promise<Initiation> {
  const callbackUrl = `${location.origin}${location.pathname}#/connections`;
  const started = await wire('POST', '/connections/initiate', { body: { toolkit, callbackUrl }, schema: initiation });
  window.open(started.redirectUrl, '_blank', 'noopener');
  return { ...started, toolkit };
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
    const timer = window.setInterval(async () => {
      try {
        const view = await wire('GET', `/connections/${encodeURIComponent(id)}`, { schema: connection });
        if (stopped || view.status === 'initiated') return;
        stopped = true;
        window.clearInterval(timer);
        setStatus(view.status);
        settled.current?.(view.status);
      } catch {
        // Try again on the next tick.
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [id]);

  return status;
}
