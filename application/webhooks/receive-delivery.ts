import { createHash } from 'node:crypto';
import { AtomicityUnavailable } from '../../domain/errors.js';
import { webhookSubject } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { RecordSet } from '../../ports/store.js';
import type { UseCase } from '../../ports/use-case.js';
import type { DeliveryAnswer, ReceivedDelivery } from '../../ports/use-cases/webhooks.js';
import type { WebhookSources } from '../../ports/webhook-verifier.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { AutomationBook } from '../automations/automation-book.js';
import type { StartRuns } from '../runs/start-runs.js';
import type { WebhookRefusals } from './webhook-refusals.js';

/** What the dedup ledger keeps of a delivery (never its body). */
export interface DeliveryMark {
  readonly source: string;
  readonly deliveryId: string;
  readonly receivedAt: string;
  /**
   * `starting` while its runs are being started, `started` once they are, `failed` when starting
   * them threw (the sender's retry finishes the job). Marks written before this field read as started.
   */
  readonly state?: 'starting' | 'started' | 'failed';
}

/** A delivery still `starting` after this long was cut short by a crash: its next retry finishes it. */
export const STALE_START_MS = 60_000;

/** How much of a delivery's body the agent is shown. */
export const DELIVERY_TEXT_CAP = 32_000;

/** What ReceiveDelivery is built from. */
export interface ReceiveDeliveryDeps {
  readonly sources: WebhookSources;
  readonly refusals: WebhookRefusals;
  readonly ledger: RecordSet<DeliveryMark>;
  readonly automations: AutomationBook;
  readonly starts: StartRuns;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

/**
 * `POST /webhooks/:source`. The source's verifier checks the signature and the clock window; a
 * failure is one audit event and a 401, before anything else happens (no principal is ever
 * resolved on this route). A verified delivery is recorded by its id with insert-if-absent, so a
 * replay — or the same delivery racing itself — starts nothing. With runs to start, the record
 * says `starting` until they are (a retry finishes an attempt cut short); with none, it is written
 * `started` at once. Then one run starts per armed
 * automation on the source, under the subject `porter:webhook:<source>`; each run acts as its
 * automation's owner, whose standing grants it uses.
 */
export class ReceiveDelivery implements UseCase<ReceivedDelivery, DeliveryAnswer> {
  constructor(private readonly deps: ReceiveDeliveryDeps) {}

  async execute(delivery: ReceivedDelivery): Promise<DeliveryAnswer> {
    const verifier = this.deps.sources.get(delivery.source);
    if (!verifier) throw await this.deps.refusals.refuse(delivery.source, 'unknown-source');
    const now = this.deps.clock.now();
    const verdict = verifier.verify(delivery, now);
    if (!verdict.ok) throw await this.deps.refusals.refuse(delivery.source, verdict.reason);

    const atomic = this.deps.ledger.atomic;
    if (!atomic) throw new AtomicityUnavailable('insert-if-absent on webhook deliveries');
    const id = ledgerId(delivery.source, verdict.deliveryId);
    // Read first: a delivery that has no run to start is recorded started in its one write.
    const armed = await this.deps.automations.armedOn(delivery.source);
    const mark: DeliveryMark = {
      source: delivery.source,
      deliveryId: verdict.deliveryId,
      receivedAt: now.toISOString(),
      state: armed.length > 0 ? 'starting' : 'started',
    };
    let receivedAt = now;
    // Read by id only: a label to list by would cost every delivery an index write.
    const first = await atomic.insertIfAbsent({ id, data: mark });
    if (!first) {
      const earlier = await this.deps.ledger.get(id);
      if (!earlier || !this.unfinished(earlier.data, now)) return { kind: 'deduplicated' };
      // An earlier attempt stopped before all its runs were started: finish it. Run ids derive from
      // the first receipt, so nothing it already started starts again.
      receivedAt = new Date(earlier.data.receivedAt);
    }

    let runIds: string[] = [];
    if (armed.length > 0 || !first) {
      try {
        runIds = await this.deps.starts.forDelivery(
          armed,
          delivery.source,
          verdict.deliveryId,
          deliveryText(delivery, verdict.deliveryId),
          receivedAt,
        );
      } catch (error) {
        await this.deps.ledger.put({ id, data: { ...mark, receivedAt: receivedAt.toISOString(), state: 'failed' } }).catch(() => undefined);
        throw error;
      }
      await this.deps.ledger.put({ id, data: { ...mark, receivedAt: receivedAt.toISOString(), state: 'started' } });
    }
    await this.deps.audit.record({
      subject: webhookSubject(delivery.source),
      action: 'webhook.received',
      outcome: 'accepted',
      details: { source: delivery.source, deliveryId: verdict.deliveryId, runIds },
    });
    return { kind: 'accepted', runIds };
  }

  /** A delivery whose runs were not all started: it failed, or its attempt died mid-way. */
  private unfinished(mark: DeliveryMark, now: Date): boolean {
    if (mark.state === 'failed') return true;
    return mark.state === 'starting' && now.getTime() - Date.parse(mark.receivedAt) >= STALE_START_MS;
  }
}

function ledgerId(source: string, deliveryId: string): string {
  return `whd_${createHash('sha256').update(`${source}\u0000${deliveryId}`).digest('base64url')}`;
}

function deliveryText(delivery: ReceivedDelivery, deliveryId: string): string {
  const body = Buffer.from(delivery.body).toString('utf8');
  const shown =
    body.length > DELIVERY_TEXT_CAP
      ? `${body.slice(0, DELIVERY_TEXT_CAP)}\n[… ${body.length - DELIVERY_TEXT_CAP} more characters not shown]`
      : body;
  return `Webhook delivery ${deliveryId} from "${delivery.source}":\n${shown}`;
}
