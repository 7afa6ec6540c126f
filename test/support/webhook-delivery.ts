import { randomUUID } from 'node:crypto';
import { sendSigned } from './signed-delivery.js';

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
  const delivered = await sendSigned(`${wire}/webhooks/${source}`, secret, payload, id);
  const body = (await delivered.json()) as { runIds?: string[] };
  return { status: delivered.status, runIds: body.runIds ?? [] };
}
