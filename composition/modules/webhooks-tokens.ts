import { token } from '../tokens.js';
import type { WebhookSources } from '../../ports/webhook-verifier.js';
import type { WebhookUseCases } from '../../ports/use-cases/webhooks.js';

/** Incoming webhooks: what webhooks-module.ts binds. */
export const WEBHOOK_TOKENS = {
  WebhookSources: token<WebhookSources>('WebhookSources'),
  WebhookUseCases: token<WebhookUseCases>('WebhookUseCases'),
};
