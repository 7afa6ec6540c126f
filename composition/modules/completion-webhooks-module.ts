import { randomBytes } from 'node:crypto';
import { get, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { COMPLETION_WEBHOOK_TOKENS } from './completion-webhooks-tokens.js';
import { GUARD_TOKENS } from './guard-tokens.js';
import { RUN_TOKENS } from './runs-tokens.js';
import { SCHEDULER_TOKENS } from './scheduler-tokens.js';
import type { CompletionWebhookPrimitives } from '../../domain/runs/completion-webhook.js';
import { CompletionWebhookBook } from '../../application/runs/completion-webhook-book.js';
import { DeliverCompletionWebhook } from '../../application/runs/deliver-completion-webhook.js';
import { StandardWebhooksSender } from '../../adapters/webhooks/standard-webhooks-sender.js';
import { GuardedEgress } from '../../adapters/shared/egress/guarded-egress.js';
import { AesGcmSecretBox } from '../../adapters/runtime/aes-gcm-secret-box.js';

/** Completion webhooks: the record of each, its secret sealed, and its delivery, signed and retried. */
export const completionWebhooksModule = porterModule((bind) => {
  bind.singleton(
    COMPLETION_WEBHOOK_TOKENS.CompletionWebhookBook,
    (ctx) => new CompletionWebhookBook(recordsOf<CompletionWebhookPrimitives>(ctx, 'run-webhooks')),
  );
  // Completion webhooks go through the egress guard; development also lets them reach this machine, so a local receiver works.
  bind.singleton(COMPLETION_WEBHOOK_TOKENS.WebhookSender, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    const egress = config.development ? new GuardedEgress({ allow: ['loopback'] }) : get(ctx, GUARD_TOKENS.Egress);
    return new StandardWebhooksSender(egress, config.completionWebhooks.timeoutSeconds * 1000);
  });
  bind.singleton(COMPLETION_WEBHOOK_TOKENS.SecretBox, (ctx) => {
    const secret = get(ctx, TOKENS.Config).secret;
    if (secret) return new AesGcmSecretBox(typeof secret === 'string' ? [secret] : secret);
    get(ctx, TOKENS.Logger).warn(
      'no PORTER_SECRET set: completion-webhook secrets are sealed with a per-boot key and stop opening on restart',
    );
    return new AesGcmSecretBox([randomBytes(32).toString('base64url')]);
  });
  bind.singleton(COMPLETION_WEBHOOK_TOKENS.DeliverCompletionWebhook, (ctx) => {
    const config = get(ctx, TOKENS.Config).completionWebhooks;
    return new DeliverCompletionWebhook({
      webhooks: get(ctx, COMPLETION_WEBHOOK_TOKENS.CompletionWebhookBook),
      sender: get(ctx, COMPLETION_WEBHOOK_TOKENS.WebhookSender),
      secrets: get(ctx, COMPLETION_WEBHOOK_TOKENS.SecretBox),
      dispatcher: get(ctx, SCHEDULER_TOKENS.WebhookDispatcher),
      clock: get(ctx, TOKENS.Clock),
      logger: get(ctx, TOKENS.Logger),
      settings: {
        holder: get(ctx, RUN_TOKENS.RunSettings).holder,
        // One attempt's timeout, and as long again for the store around it.
        leaseMs: config.timeoutSeconds * 2000 + 5_000,
        retryDelaysMs: config.retryDelaysSeconds.map((seconds) => seconds * 1000),
      },
    });
  });
});
