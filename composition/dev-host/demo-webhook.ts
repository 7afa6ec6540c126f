import { mintStandardWebhookSecret } from '../../adapters/webhooks/standard-webhooks-verifier.js';

/**
 * The secret of the development host's `demo` webhook source: PORTER_WEBHOOK_DEMO_SECRET, or one
 * minted for this boot and printed once, so a developer can sign deliveries with it (for example
 * with the `standardwebhooks` library) and POST them to /api/porter/webhooks/demo.
 */
export function demoWebhookSecret(env: NodeJS.ProcessEnv): string {
  const configured = env.PORTER_WEBHOOK_DEMO_SECRET;
  if (configured) return configured;
  const minted = mintStandardWebhookSecret();
  console.log(`PORTER_WEBHOOK_DEMO_SECRET is not set; the demo webhook source accepts deliveries signed with ${minted} until restart`);
  return minted;
}
