import { expect } from 'chai';
import { APICallError, RetryError } from 'ai';
import { INTERRUPTED_RUN_ERROR, Run, type StoredRunPrimitives } from '../../../domain/runs/run.js';
import { runsAgainAfterInterruption } from '../../../domain/runs/interrupted-call.js';
import { RunSlots } from '../../../domain/runs/run-slots.js';
import { CompletionWebhook, completionEventOf } from '../../../domain/runs/completion-webhook.js';
import { isTransientFailure } from '../../../domain/runs/transient-failure.js';
import { previewsInDryRun } from '../../../domain/guard/dry-run.js';
import { AtomicityUnavailable, NotFound, Unavailable } from '../../../domain/errors.js';
import { EgressRefused } from '../../../domain/guard/egress.js';

const T0 = '2026-06-01T12:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

function queued(over: Partial<Parameters<typeof Run.queue>[0]> = {}): Run {
  return Run.queue({
    id: 'run_0000000001',
    automationId: 'atm_0000000001',
    owner: { subject: 'ada', kind: 'user' },
    startedBy: 'porter:scheduler',
    cause: { kind: 'schedule', slot: T0 },
    prompt: 'hello',
    input: null,
    createdAt: T0,
    dryRun: false,
    retry: { max: 2, backoffSeconds: 30 },
    concurrency: { limit: 1, whenBusy: 'queue' },
    ...over,
  });
}

const begin = (run: Run, ms: number) => run.begin('instance-a', at(ms), at(ms + 60_000))!;

describe('Run attempts and retries', () => {
  it('an attempt whose instance died ends interrupted and the run is queued again at once, counting as an attempt, until retries run out', () => {
    let run = begin(queued({ retry: { max: 1, backoffSeconds: 30 } }), 0);
    run = run.interrupt(at(5_000));
    expect(run.state).to.equal('queued');
    expect(run.nextAttemptAt, 'no backoff: the instance failed, not the task').to.equal(at(5_000));
    expect(run.lease).to.equal(null);
    expect(run.attempts[0]).to.deep.include({
      outcome: 'interrupted',
      endedAt: at(5_000),
      error: INTERRUPTED_RUN_ERROR,
      retryAt: at(5_000),
    });
    run = begin(run, 6_000);
    expect(run.attempts.map((a) => a.number)).to.deep.equal([1, 2]);
    run = run.interrupt(at(7_000));
    expect(run.toPrimitives()).to.deep.include({ state: 'failed', ending: 'interrupted', error: INTERRUPTED_RUN_ERROR });
    expect(run.attempts.map((a) => a.outcome)).to.deep.equal(['interrupted', 'interrupted']);
  });

  it('an interrupted dry run, or one asked to stop, is not tried again; a watched lease names its holder', () => {
    expect(begin(queued({ dryRun: true }), 0).interrupt(at(1)).state).to.equal('failed');
    const stopping = begin(queued(), 0).requestStop(at(1));
    expect(stopping.interrupt(at(2)).state).to.equal('failed');
    const watched = queued().begin('instance-a', T0, at(60_000), true)!;
    expect(watched.watchedHolder).to.equal('instance-a');
    expect(watched.renew('instance-a', at(90_000))!.lease).to.deep.equal({ holder: 'instance-a', until: at(90_000), watched: true });
    expect(begin(queued(), 0).watchedHolder, 'a lease alone is judged by its time').to.equal(null);
  });

  it('a call cut short runs again only for a tool that may run twice', () => {
    expect(runsAgainAfterInterruption({ risk: 'read' })).to.equal(true);
    expect(runsAgainAfterInterruption({ risk: 'read', readOnly: false })).to.equal(false);
    expect(runsAgainAfterInterruption({ risk: 'read', resolveRisk: () => ({ risk: 'write', egress: false }) })).to.equal(false);
    expect(runsAgainAfterInterruption({ risk: 'write' })).to.equal(false);
    expect(runsAgainAfterInterruption({ risk: 'write', idempotent: true })).to.equal(true);
    expect(runsAgainAfterInterruption({ risk: 'read', idempotent: false })).to.equal(false);
  });

  it('each begin after a failure opens a new attempt; a transient failure waits its backoff, doubling, then the retries run out', () => {
    let run = begin(queued(), 0);
    expect(run.attempts).to.deep.equal([{ number: 1, startedAt: T0, endedAt: null, outcome: null, error: null, retryAt: null }]);
    run = run.attemptFailed(at(1_000), 'model 503', true);
    expect(run.state).to.equal('queued');
    expect(run.nextAttemptAt).to.equal(at(31_000));
    expect(run.attempts[0]).to.deep.include({ outcome: 'failed', endedAt: at(1_000), error: 'model 503', retryAt: at(31_000) });
    expect(run.begin('instance-a', at(30_999), at(90_000)), 'not before its backoff').to.equal(null);
    run = begin(run, 31_000).attemptFailed(at(32_000), 'model 503', true);
    expect(run.nextAttemptAt).to.equal(at(92_000));
    run = begin(run, 92_000).attemptFailed(at(93_000), 'model 503', true);
    expect(run).to.deep.include({ state: 'failed' });
    expect(run.toPrimitives()).to.deep.include({ ending: 'error', error: 'model 503', nextAttemptAt: null, followUp: 'due' });
    expect(run.attempts.map((a) => [a.number, a.outcome, a.retryAt])).to.deep.equal([
      [1, 'failed', at(31_000)],
      [2, 'failed', at(92_000)],
      [3, 'failed', null],
    ]);
  });

  it('never retries a failure that is not transient, a dry run, or a run asked to stop', () => {
    expect(begin(queued(), 0).attemptFailed(at(1), 'denied', false).state).to.equal('failed');
    expect(begin(queued({ dryRun: true }), 0).attemptFailed(at(1), 'model 503', true).state).to.equal('failed');
    const stopping = begin(queued(), 0).requestStop(at(1));
    expect(stopping.attemptFailed(at(2), 'model 503', true).state).to.equal('failed');
  });

  it('a run resumed after an approval goes on with the attempt it parked in', () => {
    const parked = begin(queued(), 0).park();
    const resumed = begin(parked.requeue()!, 5_000);
    expect(resumed.attempts).to.have.length(1);
    expect(resumed.succeed(at(6_000)).attempts).to.deep.equal([
      { number: 1, startedAt: T0, endedAt: at(6_000), outcome: 'succeeded', error: null, retryAt: null },
    ]);
  });

  it('a stop while it waits for its retry cancels it at once', () => {
    const waiting = begin(queued(), 0).attemptFailed(at(1_000), 'model 503', true);
    const stopped = waiting.requestStop(at(2_000));
    expect(stopped.toPrimitives()).to.deep.include({ state: 'cancelled', ending: 'stopped', nextAttemptAt: null, followUp: 'due' });
    expect(stopped.attempts.map((a) => a.outcome)).to.deep.equal(['failed']);
  });

  it('only a run that never began can be skipped; a skipped run is terminal and has nothing to follow up', () => {
    const skipped = queued().skip(at(1))!;
    expect(skipped.toPrimitives()).to.deep.include({ state: 'skipped', ending: 'skipped', followUp: null });
    expect(skipped.terminal).to.equal(true);
    expect(begin(queued(), 0).skip(at(1))).to.equal(null);
    expect(begin(queued(), 0).attemptFailed(at(1), 'x', true).skip(at(2)), 'a run waiting for its retry holds its slot').to.equal(null);
  });

  it('a rerun repeats prompt and input under the policies given, and a dry run stays dry and unretried', () => {
    const original = queued({ input: 'the delivery', dryRun: true });
    const again = original.rerun({
      id: 'run_0000000002',
      startedBy: 'ada',
      at: at(1),
      retry: { max: 5, backoffSeconds: 1 },
      concurrency: { limit: 2, whenBusy: 'skip' },
    });
    expect(again.toPrimitives()).to.deep.include({
      cause: { kind: 'rerun', of: 'run_0000000001' },
      input: 'the delivery',
      prompt: 'hello',
      dryRun: true,
      retry: { max: 0, backoffSeconds: 0 },
      concurrency: { limit: 2, whenBusy: 'skip' },
      state: 'queued',
    });
  });

  it('is stored without what still has its default, and reads back the same', () => {
    const fresh = queued({ retry: { max: 2, backoffSeconds: 30 } });
    expect(Object.keys(fresh.toStored())).to.not.include.members([
      'dryRun',
      'retry',
      'concurrency',
      'attempts',
      'nextAttemptAt',
      'followUp',
    ]);
    const retrying = begin(queued({ dryRun: false, retry: { max: 5, backoffSeconds: 1 } }), 0).attemptFailed(at(1), 'x', true);
    for (const run of [fresh, retrying, retrying.requestStop(at(2))])
      expect(Run.fromPrimitives(run.toStored()).toPrimitives()).to.deep.equal(run.toPrimitives());
  });

  it('a run stored before retries existed reads with the defaults', () => {
    const { dryRun: _d, retry: _r, concurrency: _c, attempts: _a, nextAttemptAt: _n, followUp: _f, ...old } = queued().toPrimitives();
    const read = Run.fromPrimitives(old as StoredRunPrimitives);
    expect(read.toPrimitives()).to.deep.include({
      dryRun: false,
      retry: { max: 2, backoffSeconds: 30 },
      concurrency: { limit: 1, whenBusy: 'queue' },
      attempts: [],
      nextAttemptAt: null,
      followUp: null,
    });
  });
});

describe('RunSlots', () => {
  it('admits up to the limit, again for a holder, frees a slot on release or when its run ended elsewhere', () => {
    const one = RunSlots.empty('atm_1').admit('run_a', 2)!;
    const two = one.admit('run_b', 2)!;
    expect(two.admit('run_c', 2)).to.equal(null);
    expect(two.admit('run_a', 2)).to.equal(two);
    expect(two.release('run_a').admit('run_c', 2)!.holders).to.deep.equal(['run_b', 'run_c']);
    expect(two.release('run_x')).to.equal(two);
    expect(two.without(['run_b']).holders).to.deep.equal(['run_a']);
  });
});

describe('CompletionWebhook', () => {
  const recorded = () =>
    CompletionWebhook.record({
      id: 'evt_0000000001',
      runId: 'run_0000000001',
      automationId: 'atm_0000000001',
      owner: 'ada',
      url: 'https://hooks.example.com/porter',
      sealedSecret: 'v1.x.y.z',
      type: 'run.completed',
      body: '{}',
      createdAt: T0,
    });
  const report = (status: number | null, retryable = true) => ({
    at: T0,
    status,
    error: status === 200 ? null : 'no',
    durationMs: 3,
    retryable,
  });

  it('one sender holds an attempt at a time; a lapsed hold can be taken over', () => {
    const held = recorded().begin('a', T0, at(10_000))!;
    expect(held.begin('b', at(1), at(10_001))).to.equal(null);
    expect(held.begin('b', at(10_000), at(20_000))).to.not.equal(null);
    expect(held.attempted('b', report(200), null), 'only the holder reports').to.equal(null);
  });

  it('a 2xx delivers it; a failure is tried again while delays are left, then fails; a refusal fails at once', () => {
    const delivered = recorded().begin('a', T0, at(1))!.attempted('a', report(204), at(5_000))!;
    expect(delivered.toPrimitives()).to.deep.include({ state: 'delivered', nextAttemptAt: null, lease: null });
    const again = recorded().begin('a', T0, at(1))!.attempted('a', report(500), at(5_000))!;
    expect(again.toPrimitives()).to.deep.include({ state: 'pending', nextAttemptAt: at(5_000) });
    expect(again.dueAt(at(4_999))).to.equal(false);
    const gaveUp = again.begin('a', at(5_000), at(6_000))!.attempted('a', report(null), null)!;
    expect(gaveUp.state).to.equal('failed');
    expect(gaveUp.attempts.map((a) => a.number)).to.deep.equal([1, 2]);
    const refused = recorded().begin('a', T0, at(1))!.attempted('a', report(null, false), at(5_000))!;
    expect(refused.state).to.equal('failed');
  });

  it('names the event by the run’s end, and none for a skipped run', () => {
    expect(['succeeded', 'failed', 'cancelled', 'skipped'].map((state) => completionEventOf(state as never))).to.deep.equal([
      'run.completed',
      'run.failed',
      'run.cancelled',
      null,
    ]);
  });
});

describe('isTransientFailure', () => {
  const apiError = (statusCode: number) =>
    new APICallError({ message: `answered ${statusCode}`, url: 'https://api.example.com', requestBodyValues: {}, statusCode });

  it('tries again after a model 5xx, 408 or 429 (also wrapped by the SDK’s own retries), a timeout, a dropped connection or an unavailable store', () => {
    expect(isTransientFailure(apiError(503))).to.equal(true);
    expect(isTransientFailure(apiError(429))).to.equal(true);
    expect(isTransientFailure(apiError(408))).to.equal(true);
    expect(isTransientFailure(new RetryError({ message: 'gave up', reason: 'maxRetriesExceeded', errors: [apiError(502)] }))).to.equal(
      true,
    );
    expect(isTransientFailure(new DOMException('timed out', 'TimeoutError'))).to.equal(true);
    expect(
      isTransientFailure(new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) })),
    ).to.equal(true);
    expect(isTransientFailure(new Unavailable('The database did not answer in time'))).to.equal(true);
  });

  it('never after a bad request, a refusal, a missing capability or an unknown failure', () => {
    expect(isTransientFailure(apiError(400))).to.equal(false);
    expect(isTransientFailure(apiError(401))).to.equal(false);
    expect(isTransientFailure(new AtomicityUnavailable('compare-and-swap on runs'))).to.equal(false);
    expect(isTransientFailure(new EgressRefused('10.0.0.1', 'private', true))).to.equal(false);
    expect(isTransientFailure(new NotFound('Automation'))).to.equal(false);
    expect(isTransientFailure(new Error('the tool threw'))).to.equal(false);
    expect(isTransientFailure(null)).to.equal(false);
    expect(isTransientFailure(new DOMException('aborted', 'AbortError'))).to.equal(false);
  });
});

describe('previewsInDryRun', () => {
  it('previews writes, destructive and egress calls and whatever policy asks about; reads run; blocks stay blocks', () => {
    const run = { kind: 'run', because: 'read-class' } as const;
    const ask = { kind: 'ask', because: 'risk' } as const;
    const block = { kind: 'block', because: 'policy' } as const;
    expect(previewsInDryRun({ risk: 'read', egress: false }, run)).to.equal(false);
    expect(previewsInDryRun({ risk: 'read', egress: true }, ask)).to.equal(true);
    expect(previewsInDryRun({ risk: 'write', egress: false }, { kind: 'run', because: 'policy' })).to.equal(true);
    expect(previewsInDryRun({ risk: 'destructive', egress: false }, ask)).to.equal(true);
    expect(previewsInDryRun({ risk: 'read', egress: false }, { kind: 'ask', because: 'policy' })).to.equal(true);
    expect(previewsInDryRun({ risk: 'write', egress: false }, block)).to.equal(false);
  });
});
