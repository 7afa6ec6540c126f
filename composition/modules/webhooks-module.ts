import { get, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { AUTOMATION_TOKENS } from './automations-tokens.js';
import { RUN_TOKENS } from './runs-tokens.js';
import { WEBHOOK_TOKENS } from './webhooks-tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { WebhookVerifier } from '../../ports/webhook-verifier.js';
import { WebhookRefusals } from '../../application/webhooks/webhook-refusals.js';
import { AdmitSource } from '../../application/webhooks/admit-source.js';
import { RefuseOversize } from '../../application/webhooks/refuse-oversize.js';
import { ReceiveDelivery, type DeliveryMark } from '../../application/webhooks/receive-delivery.js';
import { StaticWebhookSources } from '../../adapters/webhooks/static-webhook-sources.js';
import { StandardWebhooksVerifier } from '../../adapters/webhooks/standard-webhooks-verifier.js';
import { GitHubVerifier } from '../../adapters/webhooks/github-verifier.js';
import { StripeVerifier } from '../../adapters/webhooks/stripe-verifier.js';
import { webhookRoutes } from '../../adapters/http/routes/webhook-routes.js';
import { TracedUseCase } from '../../application/shared/traced-use-case.js';
import { ATTR, type Telemetry } from '../../ports/telemetry.js';
import type { WebhookUseCases } from '../../ports/use-cases/webhooks.js';

type SourceOption = PorterConfig['webhooks']['sources'][string];

/** Each configured source becomes its verifier, chosen by kind, at wiring time. */
export function verifierFor(source: SourceOption): WebhookVerifier {
  switch (source.kind) {
    case 'standard':
      return new StandardWebhooksVerifier(source.secret);
    case 'github':
      return new GitHubVerifier(source.secret);
    case 'stripe':
      return new StripeVerifier(source.secret);
  }
}

/** Signed webhook intake: `POST /webhooks/:source`, with the sources the `webhooks` option registers. */
export const webhooksModule = porterModule((bind) => {
  bind.singleton(WEBHOOK_TOKENS.WebhookSources, (ctx) => {
    const sources = get(ctx, TOKENS.Config).webhooks.sources;
    return new StaticWebhookSources(Object.fromEntries(Object.entries(sources).map(([name, source]) => [name, verifierFor(source)])));
  });
  bind.singleton(WEBHOOK_TOKENS.WebhookUseCases, (ctx) => {
    const sources = get(ctx, WEBHOOK_TOKENS.WebhookSources);
    const refusals = new WebhookRefusals(get(ctx, TOKENS.AuditTrail));
    return {
      admitSource: new AdmitSource(sources, refusals),
      refuseOversize: new RefuseOversize(refusals),
      receiveDelivery: new ReceiveDelivery({
        sources,
        refusals,
        ledger: recordsOf<DeliveryMark>(ctx, 'webhook-deliveries'),
        automations: get(ctx, AUTOMATION_TOKENS.AutomationBook),
        starts: get(ctx, RUN_TOKENS.StartRuns),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
      }),
    };
  });
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) =>
    webhookRoutes(traced(get(ctx, WEBHOOK_TOKENS.WebhookUseCases), get(ctx, TOKENS.Telemetry))),
  );
});

/** A delivery in a `porter.webhook.delivery` span (server kind): its source, whether it was verified or deduplicated, how many runs it started. */
function traced(webhooks: WebhookUseCases, telemetry: Telemetry): WebhookUseCases {
  return {
    ...webhooks,
    receiveDelivery: new TracedUseCase(webhooks.receiveDelivery, telemetry, {
      name: 'porter.webhook.delivery',
      kind: 'server',
      before: (delivery) => ({ [ATTR.webhookSource]: delivery.source }),
      after: (answer) => ({
        [ATTR.webhookVerified]: true,
        [ATTR.webhookDeduplicated]: answer.kind === 'deduplicated',
        [ATTR.runsStarted]: answer.kind === 'accepted' ? answer.runIds.length : 0,
      }),
      failed: () => ({ [ATTR.webhookVerified]: false }),
    }),
  };
}
