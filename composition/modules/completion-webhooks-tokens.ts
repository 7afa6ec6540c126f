import { token } from '../tokens.js';
import type { CompletionWebhookBook } from '../../application/runs/completion-webhook-book.js';
import type { WebhookSender, SecretBox } from '../../ports/webhook-sender.js';
import type { DeliverCompletionWebhook } from '../../application/runs/deliver-completion-webhook.js';

/** Completion webhooks: what completion-webhooks-module.ts binds. */
export const COMPLETION_WEBHOOK_TOKENS = {
  CompletionWebhookBook: token<CompletionWebhookBook>('CompletionWebhookBook'),
  /** Signs and sends completion webhooks (Standard Webhooks) through the egress guard. */
  WebhookSender: token<WebhookSender>('WebhookSender'),
  /** Seals secrets Porter must use again (completion-webhook secrets) with the deployment's secret. */
  SecretBox: token<SecretBox>('SecretBox'),
  DeliverCompletionWebhook: token<DeliverCompletionWebhook>('DeliverCompletionWebhook'),
};
