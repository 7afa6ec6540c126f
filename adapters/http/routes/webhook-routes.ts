import getRawBody from 'raw-body';
import { DeliveryTooLarge, WEBHOOK_BODY_LIMIT_BYTES, WEBHOOK_SOURCE_NAME } from '../../../domain/webhooks/delivery.js';
import type { WebhookUseCases } from '../../../ports/use-cases/webhooks.js';
import { z } from 'zod';
import { RunIds } from '../shapes/automation-shapes.js';
import { json, ownBody, route } from '../wire-route.js';
import type { WireContext } from '../wire-state.js';
import type { WireRoutes } from '../wire-routes.js';

/**
 * `POST /webhooks/:source`. Self-authenticating (the signature) and CSRF-exempt: no principal is
 * ever resolved here. The raw body is read by this handler, at most 1 MiB: past the cap reading
 * stops and the answer is 413. `202 {runIds}` for a verified delivery, `200 {deduplicated: true}`
 * for one already received, 401 for anything unverifiable (an unknown source included).
 */
export function webhookRoutes(webhooks: WebhookUseCases): WireRoutes {
  return {
    access: 'self',
    tag: 'Automations',
    securitySchemes: {
      standardWebhooks: {
        type: 'apiKey',
        in: 'header',
        name: 'webhook-signature',
        description:
          'Standard Webhooks: HMAC-SHA256 over `id.timestamp.body`, with `webhook-id` and `webhook-timestamp` (a 5-minute window); several signatures accepted.',
      },
      githubSignature: { type: 'apiKey', in: 'header', name: 'X-Hub-Signature-256', description: "GitHub's HMAC-SHA256 of the body." },
      stripeSignature: {
        type: 'apiKey',
        in: 'header',
        name: 'Stripe-Signature',
        description: "Stripe's signed timestamp and HMAC-SHA256.",
      },
    },
    security: [{ standardWebhooks: [] }, { githubSignature: [] }, { stripeSignature: [] }],
    routes: [
      route({
        id: 'receiveWebhook',
        method: 'post',
        path: '/webhooks/:source',
        summary: 'Deliver a signed webhook',
        description:
          "Verified with the source's registered scheme before anything runs; a bad or stale signature, or an unknown source, is 401 with one audit event and nothing started. " +
          'Starts one run per armed automation on the source, as `porter:webhook:<source>`. Deliveries are deduplicated by their id.',
        params: { source: z.string().describe('A registered source name (a-z, 0-9, `_` and `-`).') },
        body: ownBody('The payload exactly as signed, at most 1 MiB (reading stops past it).', { '*/*': null }),
        responses: {
          200: json('Already received: nothing new started.', Deduplicated),
          202: json('Verified: the runs started.', RunIds),
        },
        errors: ['unauthorized', 'payload-too-large', 'unavailable'],
        handle: async (ctx, { params }) => {
          const source = WEBHOOK_SOURCE_NAME.test(params.source) ? params.source : 'invalid-source-name';
          await webhooks.admitSource.execute({ source });
          const body = await readCapped(ctx, source, webhooks);
          const answer = await webhooks.receiveDelivery.execute({ source, headers: headersOf(ctx), body });
          if (answer.kind === 'deduplicated') {
            ctx.status = 200;
            ctx.body = { deduplicated: true };
          } else {
            ctx.status = 202;
            ctx.body = { runIds: answer.runIds };
          }
        },
      }),
    ],
  };
}

const Deduplicated = z.object({ deduplicated: z.literal(true) }).meta({ id: 'Deduplicated' });

async function readCapped(ctx: WireContext, source: string, webhooks: WebhookUseCases): Promise<Uint8Array> {
  try {
    return await getRawBody(ctx.req, { limit: WEBHOOK_BODY_LIMIT_BYTES, length: ctx.get('content-length') || undefined });
  } catch (error) {
    if ((error as { type?: string }).type !== 'entity.too.large') throw error;
    await webhooks.refuseOversize.execute({ source });
    // The rest of the body was never read: close the connection rather than drain it.
    ctx.set('Connection', 'close');
    throw new DeliveryTooLarge();
  }
}

function headersOf(ctx: WireContext): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(ctx.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}
