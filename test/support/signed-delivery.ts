import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';

/** The secret of the development host's `demo` webhook source in the tests (`PORTER_WEBHOOK_DEMO_SECRET`). */
export const DEMO_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** The headers of a JSON delivery of `body` signed as a sender would (the standardwebhooks library). */
export function signedHeaders(
  secret: string,
  body: string,
  id = `msg_${Math.random().toString(36).slice(2)}`,
  at = new Date(),
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

/** POSTs `body` to `url` as a delivery signed with `secret` (a fresh id unless given). */
export function sendSigned(url: string, secret: string, body: string, id?: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: signedHeaders(secret, body, id), body });
}

/** A delivery to `source` on the wire at `base`, signed with `secret`, which must be accepted (202): the runs it started. */
export async function deliverSigned(base: string, source: string, secret: string, payload: string, id?: string): Promise<string[]> {
  const response = await sendSigned(`${base}/webhooks/${source}`, secret, payload, id);
  expect(response.status).to.equal(202);
  return ((await response.json()) as { runIds: string[] }).runIds;
}

/** A delivery to the `demo` source of the wire at `base`, which must be accepted (202): the runs it started. */
export function deliverDemo(base: string, payload: string): Promise<string[]> {
  return deliverSigned(base, 'demo', DEMO_SECRET, payload);
}
