import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Delivers `payload` to a Standard Webhooks source on the wire (`${wire}/webhooks/${source}`),
 * signed with its secret: the run ids it started.
 */
export async function deliverWebhook(
  wire: string,
  source: string,
  secret: string,
  payload: string,
  id = `msg_${randomUUID()}`,
): Promise<{ status: number; runIds: string[] }> {
  const at = new Date();
  const delivered = await fetch(`${wire}/webhooks/${source}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, payload),
    },
    body: payload,
  });
  const body = (await delivered.json()) as { runIds?: string[] };
  return { status: delivered.status, runIds: body.runIds ?? [] };
}
