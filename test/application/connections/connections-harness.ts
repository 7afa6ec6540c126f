import { expect } from 'chai';
import { NotFound } from '../../../domain/errors.js';
import type { ConnectionPrimitives } from '../../../domain/connections/connection.js';
import type { Principal } from '../../../domain/principal.js';
import type { ConnectionBroker } from '../../../ports/connections.js';
import type { Store } from '../../../ports/store.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { StoreAuditLog } from '../../../adapters/audit/store-audit-log.js';
import { AuditTrail } from '../../../application/audit/audit-trail.js';
import { ConnectionBook } from '../../../application/connections/connection-book.js';
import { ConnectionRefresh } from '../../../application/connections/connection-refresh.js';
import { ConnectionGate } from '../../../application/connections/connection-gate.js';
import { InitiateConnection } from '../../../application/connections/initiate-connection.js';
import { GetConnection } from '../../../application/connections/get-connection.js';
import { ListConnections } from '../../../application/connections/list-connections.js';
import { RemoveConnection } from '../../../application/connections/remove-connection.js';
import { NoConnectionBroker } from '../../../adapters/connections/no-connection-broker.js';
import { ManualClock } from '../../support/manual-clock.js';
import { RecordingLogger, SequentialIds } from '../../support/fakes.js';
import { rejection } from '../../support/outcomes.js';
import type { ScriptedBroker } from '../../support/scripted-broker.js';
import type { HeldDeletions } from '../../../application/deletions/deletable.js';

export const ada: Principal = { subject: 'ada', kind: 'user' };
export const bob: Principal = { subject: 'bob', kind: 'user' };

/** The connection use cases over the in-memory store, wired as connections-module wires them. */
export function connectionsHarness(
  given: ConnectionBroker | null,
  options: { store?: (clock: ManualClock) => Store; clock?: ManualClock; held?: (store: Store) => HeldDeletions } = {},
) {
  const clock = options.clock ?? new ManualClock('2026-06-01T12:00:00.000Z');
  const store = options.store?.(clock) ?? new MemoryStore({ clock });
  const ids = new SequentialIds();
  const logger = new RecordingLogger();
  const auditLog = new StoreAuditLog(store);
  const audit = new AuditTrail({ sink: auditLog, ids, clock, logger });
  const book = new ConnectionBook(store.records<ConnectionPrimitives>('connections'));
  // Without a broker the composition binds the null one; so does the harness.
  const broker = given ?? new NoConnectionBroker();
  const refresh = new ConnectionRefresh({ book, broker, clock, audit, logger });
  const held = options.held?.(store);
  return {
    clock,
    store,
    logger,
    auditLog,
    book,
    initiate: new InitiateConnection({ broker, book, ids, clock, audit }),
    get: new GetConnection(book, refresh),
    list: new ListConnections(book, refresh, held),
    remove: new RemoveConnection(broker, book, audit),
    gate: new ConnectionGate(broker, book, held),
    start(principal: Principal = ada, toolkit = 'github') {
      return this.initiate.execute({ principal, toolkit, callbackUrl: 'https://host.example/settings' });
    },
  };
}

/** Exactly one removal of the connection was audited, and the connection is gone. */
export async function expectRemovedOnce(h: ReturnType<typeof connectionsHarness>, id: string): Promise<void> {
  const removals = (await h.auditLog.list('ada', { limit: 100 })).events.filter((e) => e.action === 'connection.removed');
  expect(removals).to.have.length(1);
  expect(await h.book.find(id)).to.equal(null);
}

/**
 * Polls Ada's consented connection while a delete lands as the poll waits on the broker: the poll
 * answers not-found, and the connection is never brought back.
 */
export async function expectPollLosesToDelete(h: ReturnType<typeof connectionsHarness>, broker: ScriptedBroker): Promise<void> {
  const { id } = await h.start();
  broker.consent(id);
  broker.duringObserve = async () => {
    broker.duringObserve = null;
    await h.remove.execute({ principal: ada, connectionId: id });
  };
  expect(await rejection(h.get.execute({ principal: ada, connectionId: id }))).to.be.instanceOf(NotFound);
  expect(await h.book.find(id)).to.equal(null);
}
