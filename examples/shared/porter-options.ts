import type { PorterOptions } from 'porter-runtime';
import { notesAdd } from './notes-tool.js';

/**
 * What every example passes to `createPorter` beside its own principal resolver: the host tool and,
 * when `ORDERS_WEBHOOK_SECRET` is set (a `whsec_…` secret), a Standard Webhooks source `orders`.
 * `PORTER_SECRET`, `PORTER_DATABASE_URL` and `NODE_ENV` come from the environment.
 */
export function exampleOptions(principal: NonNullable<PorterOptions['principal']>): PorterOptions {
  const secret = process.env.ORDERS_WEBHOOK_SECRET;
  return {
    principal,
    tools: [notesAdd],
    ...(secret ? { webhooks: { sources: { orders: { kind: 'standard', secret } } } } : {}),
  };
}

/**
 * The examples' stand-in for a real sign-in: the `x-user` header names the person. A real host
 * reads its own session (a cookie its auth library set) instead; never trust a bare header.
 */
export function signedInAs(header: string | string[] | null | undefined): { id: string } | null {
  const id = Array.isArray(header) ? header[0] : header;
  return id && /^[a-z0-9_-]{1,64}$/i.test(id) ? { id } : null;
}
