import { mintStandardWebhookSecret } from '../../adapters/webhooks/standard-webhooks-verifier.js';

/** The demo source's secret, and, when it was minted for this boot, the line that tells the developer. */
export interface DemoWebhookSecret {
  readonly secret: string;
  readonly minted?: string;
}

/**
 * The secret of the development host's `demo` webhook source: PORTER_WEBHOOK_DEMO_SECRET, or one
 * minted for this boot. A minted one is said once the host listens (never for a host that did not
 * start), so a developer can sign deliveries with it (for example with the `standardwebhooks`
 * library) and POST them to /api/porter/webhooks/demo.
 */
export function demoWebhookSecret(env: NodeJS.ProcessEnv): DemoWebhookSecret {
  const configured = env.PORTER_WEBHOOK_DEMO_SECRET;
  if (configured) return { secret: configured };
  const secret = mintStandardWebhookSecret();
  return {
    secret,
    minted: `PORTER_WEBHOOK_DEMO_SECRET is not set; the demo webhook source accepts deliveries signed with ${secret} until restart`,
  };
}
