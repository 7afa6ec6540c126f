import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { StandardWebhooksVerifier } from '../../../adapters/webhooks/standard-webhooks-verifier.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import type { RecordSet, Store } from '../../../ports/store.js';
import { automationsHarness } from '../../support/automations-harness.js';
import { ManualClock } from '../../support/manual-clock.js';
import { STALE_START_MS, type DeliveryMark } from '../../../application/webhooks/receive-delivery.js';

const SECRET = `whsec_${Buffer.from('a-test-secret-for-standard-webhooks').toString('base64')}`;

/** A store whose run inserts fail while `failing` is set, as a database hiccup would. */
function flakyRuns(inner: Store): Store & { failing: boolean } {
  const store = Object.create(inner) as Store & { failing: boolean };
  store.failing = false;
  store.records = <T>(name: string): RecordSet<T> => {
    const set = inner.records<T>(name);
    if (name !== 'runs') return set;
    return Object.assign(Object.create(set) as RecordSet<T>, {
      get: set.get.bind(set),
      put: set.put.bind(set),
      delete: set.delete.bind(set),
      list: set.list.bind(set),
      claim: set.claim,
      atomic: {
        ...set.atomic!,
        insertManyIfAbsent: async (inputs: Parameters<NonNullable<RecordSet<T>['atomic']>['insertManyIfAbsent']>[0]) => {
          if (store.failing) throw new Error('database hiccup');
          return set.atomic!.insertManyIfAbsent(inputs);
        },
      },
    });
  };
  return store;
}

describe('ReceiveDelivery: a delivery cut short is finished by its retry, never doubled', () => {
  async function setup() {
    const clock = new ManualClock(Date.now());
    const store = flakyRuns(new MemoryStore({ clock }));
    const h = automationsHarness({ tools: [], store, sources: { demo: new StandardWebhooksVerifier(SECRET) } });
    h.clock.set(Date.now()); // deliveries are signed now, and must land inside the 5-minute window
    const created = await h.automation({ source: 'demo', prompt: 'handle it' });
    await h.arm.execute({ principal: { subject: 'ada', kind: 'user' }, automationId: created.id });
    const delivery = (id: string) => {
      const body = JSON.stringify({ hello: 'world' });
      const at = new Date();
      const signature = new Webhook(SECRET).sign(id, at, body);
      return {
        source: 'demo',
        headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature },
        body: new TextEncoder().encode(body),
      };
    };
    return { h, store, delivery };
  }

  it('starts the runs on the retry after starting them failed, then deduplicates', async () => {
    const { h, store, delivery } = await setup();
    store.failing = true;
    let failed = false;
    try {
      await h.receive.execute(delivery('msg_1'));
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
    store.failing = false;
    const retried = await h.receive.execute(delivery('msg_1'));
    expect(retried.kind).to.equal('accepted');
    expect(retried.kind === 'accepted' && retried.runIds).to.have.length(1);
    expect(await h.receive.execute(delivery('msg_1'))).to.deep.equal({ kind: 'deduplicated' });
  });

  it('finishes a delivery whose attempt died mid-way without starting any run twice', async () => {
    const { h, store, delivery } = await setup();
    const first = await h.receive.execute(delivery('msg_2'));
    const runIds = first.kind === 'accepted' ? first.runIds : [];
    // Play a crash between starting the runs and recording it: the mark is left `starting`.
    const ledger = store.records<DeliveryMark>('webhook-deliveries');
    const [mark] = (await ledger.list()).items;
    await ledger.put({ id: mark!.id, data: { ...mark!.data, state: 'starting' } });
    expect(await h.receive.execute(delivery('msg_2'))).to.deep.equal({ kind: 'deduplicated' });
    h.clock.advance(STALE_START_MS);
    const resumed = await h.receive.execute(delivery('msg_2'));
    expect(resumed.kind).to.equal('accepted');
    const all = await h.runs.inState('queued');
    expect(all.filter((r) => r.run.toPrimitives().cause.kind === 'webhook')).to.have.length(1);
    expect(resumed.kind === 'accepted' && resumed.runIds).to.deep.equal(runIds);
  });
});
