import getRawBody from 'raw-body';
import { DeliveryTooLarge, WEBHOOK_BODY_LIMIT_BYTES, WEBHOOK_SOURCE_NAME } from '../../../domain/webhooks/delivery.js';
import type { WebhookUseCases } from '../../../ports/use-cases/webhooks.js';
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
    register(router) {
      router.post('/webhooks/:source', async (ctx) => {
        const source = WEBHOOK_SOURCE_NAME.test(ctx.params.source ?? '') ? ctx.params.source! : 'invalid-source-name';
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
      });
    },
  };
}

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
