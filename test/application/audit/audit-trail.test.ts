import { expect } from 'chai';
import { AuditTrail } from '../../../application/audit/audit-trail.js';
import { StoreAuditLog } from '../../../adapters/audit/store-audit-log.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { RecordingLogger, SequentialIds } from '../../support/fakes.js';
import type { AuditSink } from '../../../ports/audit.js';

describe('AuditTrail', () => {
  it("writes events with an aud_ id and the clock's time, readable by their subject", async () => {
    const clock = new ManualClock('2026-05-05T05:05:05.000Z');
    const log = new StoreAuditLog(new MemoryStore({ clock }));
    const trail = new AuditTrail({ sink: log, ids: new SequentialIds(), clock, logger: new RecordingLogger() });
    await trail.record({ subject: 'porter:webhook:github', action: 'webhook.verification-failed', outcome: 'bad-signature' });
    await trail.record({ subject: 'ada', action: 'act-as.refused', outcome: 'act-as-subject-mismatch' });
    const page = await log.list('porter:webhook:github', {});
    expect(page.events).to.deep.equal([
      {
        id: 'aud_0000000001',
        at: '2026-05-05T05:05:05.000Z',
        subject: 'porter:webhook:github',
        action: 'webhook.verification-failed',
        outcome: 'bad-signature',
      },
    ]);
    expect((await log.list('webhook:github', {})).events).to.deep.equal([]);
  });

  it('never throws when the sink fails, and logs that the event was lost', async () => {
    const broken: AuditSink = { write: async () => Promise.reject(new Error('disk full')) };
    const logger = new RecordingLogger();
    const trail = new AuditTrail({ sink: broken, ids: new SequentialIds(), clock: new ManualClock(), logger });
    await trail.record({ subject: 'ada', action: 'present.credentials', outcome: 'present-credentials-not-forwarded' });
    expect(logger.entries).to.have.length(1);
    expect(logger.entries[0]!.level).to.equal('error');
    expect(logger.text()).to.contain('disk full');
  });

  it('does not let a sink that hangs block the call beyond its wait', async () => {
    const hanging: AuditSink = { write: () => new Promise<void>(() => undefined) };
    const logger = new RecordingLogger();
    const trail = new AuditTrail({ sink: hanging, ids: new SequentialIds(), clock: new ManualClock(), logger, waitMs: 50 });
    // Without the wait this never resolves and the test times out.
    await trail.record({ subject: 'ada', action: 'present.credentials', outcome: 'present-credentials-not-forwarded' });
    expect(logger.text()).to.contain('slow');
  });
});
