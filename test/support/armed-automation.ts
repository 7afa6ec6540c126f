import type { WireClient } from './turn-client.js';

// What WireClient.json answers, its body read as the test needs it.
type Answer = { status: number; body: any; headers: Headers };

/**
 * Creates `automation` (a POST /automations body) as the client's person and arms it, approving
 * each ask the arming raises (one per tool its task names), as the person does before a trigger
 * may start a run. Both answers come back for the test to check.
 */
export async function createArmed(client: WireClient, automation: Record<string, unknown>): Promise<{ created: Answer; armed: Answer }> {
  const created = await client.json('POST', '/automations', automation);
  const armed = await client.json('POST', `/automations/${created.body.id}/arm`, {});
  for (const ask of armed.body.asks ?? []) await client.json('POST', `/approvals/${ask.approvalId}/decide`, { approve: true });
  return { created, armed };
}
