import type { Principal } from '../../domain/principal.js';
import type { CallingAutomation } from '../../domain/guard/tool-call.js';
import type { Run } from '../../domain/runs/run.js';
import { isTransientFailure } from '../../domain/runs/transient-failure.js';
import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import { failedToolCalls, type UiMessage } from '../../domain/threads/ui-message.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { InstanceLiveness } from '../../ports/liveness.js';
import type { Logger } from '../../ports/logger.js';
import type { RunDispatcher } from '../../ports/scheduler.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { AutomationBook } from '../automations/automation-book.js';
import type { AgentTurn } from '../threads/agent-turn.js';
import type { ParkedApprovals } from './parked-approvals.js';
import type { ResumeRun } from './resume-run.js';
import type { RunAdmission } from './run-admission.js';
import type { RunBook } from './run-book.js';
import type { RunFollowUp } from './run-follow-up.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import type { TurnSlot, TurnSlots } from '../usage/turn-slots.js';
import { defined } from '../../domain/defined.js';

export interface RunExecutionSettings {
  /** Who this executor is (instance and process), written into the lease. */
  readonly holder: string;
  /** How long a lease lasts; the executor renews it every third of that while it works. */
  readonly leaseMs: number;
}

/** What ExecuteRun is built from. */
export interface ExecuteRunDeps {
  readonly runs: RunBook;
  readonly automations: AutomationBook;
  readonly agent: AgentTurn;
  readonly parked: ParkedApprovals;
  readonly resume: ResumeRun;
  /** Whether the run may begin: its automation's concurrency, decided by the store. */
  readonly admission: RunAdmission;
  /** What follows its end: the slot, the next queued run, the completion webhook. */
  readonly followUp: RunFollowUp;
  /** Where a retry is handed when its backoff has passed. */
  readonly dispatcher: RunDispatcher;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly logger: Logger;
  readonly settings: RunExecutionSettings;
  /** The owner's `runs` budget, charged when a run first begins (`NoUsageMeter`: nothing is metered). */
  readonly meter: UsageMeter;
  /**
   * The bound on the owner's turns in flight, which a dry run counts toward while it executes (a
   * turn the person asked for now, whether by a dry run or its rerun; `NoTurnSlots`: none).
   */
  readonly slots: TurnSlots;
  /**
   * This instance's liveness mark (PostgreSQL): while held, its leases say so and others may take
   * its runs the moment the mark is gone; lost, the runs in flight here are let go and put back at once.
   */
  readonly liveness: InstanceLiveness;
}

/**
 * Executes one run through the agent loop (AgentTurn), away from the owner: venue `automation`,
 * presence `away`, carrying its automation, so only standing grants that apply anywhere or to this
 * automation let calls through and anything else parks for the owner. The run first takes one of
 * its automation's concurrency slots (or waits queued, or is skipped, as its concurrency says),
 * then the executor claims it (one winner across instances), holds a lease it renews while working,
 * and between steps reads the stored run, so a stop sent to any instance reaches it: the current
 * step finishes, its calls drain, the run's parked approvals are dropped and the run ends
 * cancelled. An attempt that fails for a transient reason is tried again after its backoff
 * (`Run.attemptFailed`), going on from the transcript it left; a dry run previews its calls. Every
 * tool call of a run is recorded in its transcript before it starts and once it ends, so an
 * attempt cut short (this instance died) is retried elsewhere without running a finished call
 * again (AgentTurn resumes after it).
 */
export class ExecuteRun {
  /** The runs executing here, by the controller that aborts each. */
  private readonly working = new Map<AbortController, string>();
  /** Runs let go mid-way (closing, or the liveness mark lost): another instance takes them on. */
  private readonly abandoned = new WeakSet<AbortController>();
  /** Claims under way: a run claimed as this executor closes is put back with those in flight. */
  private readonly taking = new Set<Promise<{ run: Run; first: boolean } | null>>();
  private closing = false;
  private closed: Promise<void> | null = null;

  constructor(private readonly deps: ExecuteRunDeps) {
    // Others may take this instance's runs now: each is put back in the queue and handed out again.
    deps.liveness.onLost(() => void this.handBack(this.letGo()));
  }

  async execute(runId: string): Promise<void> {
    if (this.closing) return;
    const taking = this.take(runId);
    this.taking.add(taking);
    let taken: { run: Run; first: boolean } | null;
    try {
      taken = await taking;
    } finally {
      // In the same turn as the check below and joining `working`, so closing sees the run one way or the other.
      this.taking.delete(taking);
    }
    // Claimed while this executor closed: closing waited for the claim and puts the run back.
    if (!taken || this.closing) return;
    const begun = taken.run;

    const abort = new AbortController();
    this.working.set(abort, runId);
    const heartbeat = setInterval(() => void this.renew(runId, abort), Math.max(50, Math.floor(this.deps.settings.leaseMs / 3)));
    heartbeat.unref?.();
    let finishReason: string | undefined;
    let errorText: string | null = null;
    let failure: unknown = null;
    let slot: TurnSlot | null = null;
    try {
      // A dry run holds one of the owner's turns in flight (the one its POST took, when it came
      // that way: the place is the run's own); all taken, it ends failed saying so.
      if (begun.dryRun) slot = await this.deps.slots.take(ownerOf(begun), runId);
      // The owner's `runs` budget pays for a run once, when it first begins (not its retries or
      // resumptions); over budget, the run ends failed saying so. A dry run paid when it was asked
      // for (DryRunAutomation, RerunRun), before it was kept.
      if (taken.first && !begun.dryRun) await this.deps.meter.charge(begun.owner.subject, 'runs');
      const { messages, continuing } = await this.transcript(begun);
      const automation = await this.callingAutomation(begun);
      await this.deps.agent.run({
        principal: ownerOf(begun),
        threadId: runId,
        scope: {
          venue: 'automation',
          presence: 'away',
          session: runId,
          runId,
          automation,
          // Once let go, another attempt may own the transcript: nothing more is written to it from here.
          save: (message) => (this.abandoned.has(abort) ? Promise.resolve() : this.deps.runs.putMessage(runId, message)),
          shouldStop: async () => abort.signal.aborted || ((await this.deps.runs.find(runId))?.run.stopRequested ?? true),
          ...defined({ dryRun: begun.dryRun ? true : undefined }),
          onError: (error) => (failure = error),
        },
        messages,
        continuing,
        signal: abort.signal,
        emit: (chunk: UiChunk) => {
          if (chunk.type === 'finish') finishReason = chunk.finishReason;
          if (chunk.type === 'error') errorText = chunk.errorText;
        },
      });
    } catch (error) {
      finishReason = 'error';
      errorText = error instanceof Error ? error.message : String(error);
      // Safe to retry when transient: the calls that ran are recorded, and the next attempt resumes after them.
      failure = error;
    } finally {
      clearInterval(heartbeat);
      this.working.delete(abort);
      await slot?.release();
    }
    // Let go mid-run (shutting down, or the liveness mark lost): the run was put back in the queue
    // (failing that, its lease lapses or its mark is gone, and a sweep does it), or a sweep took it back.
    if (this.closing || this.abandoned.has(abort)) return;
    try {
      const failed = finishReason === 'error' ? { error: errorText ?? 'The run failed', transient: isTransientFailure(failure) } : null;
      await this.settle(runId, begun, failed);
    } catch (error) {
      this.deps.logger.error('a run could not be settled; the sweep will end it', {
        runId,
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /**
   * Stops taking runs and abandons the ones in flight, putting each back in the queue at once (an
   * interrupted attempt, as the sweep would after a crash), so another instance takes it on now
   * rather than once its lease lapses: an automation whose run was in flight here is not kept busy
   * past its next slot. Its retries spent, a run is left to the sweep, which ends it.
   */
  close(): Promise<void> {
    this.closing = true;
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private async shutDown(): Promise<void> {
    const inFlight = this.letGo();
    const claimed = await Promise.all([...this.taking].map((taking) => taking.catch(() => null)));
    await this.putBack([...inFlight, ...claimed.flatMap((taken) => (taken ? [taken.run.id] : []))]);
  }

  /** Abandons the runs in flight: others take them on, and this executor writes nothing more to them. */
  private letGo(): string[] {
    const runIds: string[] = [];
    for (const [abort, runId] of this.working) {
      this.abandoned.add(abort);
      abort.abort();
      runIds.push(runId);
    }
    return runIds;
  }

  /** The liveness mark was lost but this instance lives on: the runs it let go are handed out again, to any instance. */
  private async handBack(runIds: ReadonlyArray<string>): Promise<void> {
    const queued = await this.putBack(runIds);
    if (queued.length === 0) return;
    await this.deps.dispatcher.dispatch(queued).catch((error: unknown) =>
      this.deps.logger.warn('runs put back could not be handed out; the sweep will', {
        cause: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  /** Puts the runs this executor let go back in the queue, due now; answers those it put back. */
  private async putBack(runIds: ReadonlyArray<string>): Promise<string[]> {
    const queued: string[] = [];
    const now = this.deps.clock.now().toISOString();
    const holder = this.deps.settings.holder;
    for (const runId of runIds) {
      try {
        const after = await this.deps.runs.update(runId, (run) => {
          if (run.state !== 'running' || run.lease?.holder !== holder) return null;
          const interrupted = run.interrupt(now);
          return interrupted.state === 'queued' ? interrupted : null;
        });
        if (after?.state !== 'queued') continue;
        queued.push(runId);
        await this.deps.audit.record({
          subject: after.owner.subject,
          action: 'run.interrupted',
          outcome: after.state,
          details: { runId, automationId: after.automationId, attempt: after.attempts.length, retrying: true },
        });
      } catch (error) {
        this.deps.logger.warn('a run let go could not be put back; its lease will lapse', {
          runId,
          cause: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return queued;
  }

  /**
   * Takes a queued, due run: its automation's concurrency first (a run arriving while the
   * automation is busy stays queued, or is skipped), then the claim. Null when this executor does
   * not run it.
   */
  private async take(runId: string): Promise<{ run: Run; first: boolean } | null> {
    const now = this.deps.clock.now().toISOString();
    const loaded = await this.deps.runs.find(runId);
    if (!loaded) return null;
    if (!loaded.run.dueAt(now)) {
      // Handed over before its retry was due (a timer that fired early, a job engine on another
      // clock): handed over again for then, so it is not left to the sweep.
      const retryAt = loaded.run.state === 'queued' ? loaded.run.nextAttemptAt : null;
      if (retryAt) await this.deps.dispatcher.dispatch([runId], new Date(retryAt));
      return null;
    }
    const admission = await this.deps.admission.admit(loaded.run);
    if (admission === 'full') {
      if (loaded.run.concurrency.whenBusy === 'skip') await this.skip(runId, now);
      return null;
    }
    const begun = loaded.run.begin(this.deps.settings.holder, now, this.leaseUntil(), this.deps.liveness.holding);
    if (begun && (await this.deps.runs.swap(loaded, begun))) return { run: begun, first: loaded.run.toPrimitives().startedAt === null };
    // Stopped between the read and the claim: the slot just taken goes to the next run.
    if (admission === 'admitted' && (await this.deps.runs.find(runId))?.run.terminal) {
      await this.deps.admission.release(loaded.run);
      await this.deps.followUp.letQueuedGo(loaded.run.automationId);
    }
    return null;
  }

  private async skip(runId: string, now: string): Promise<void> {
    const skipped = await this.deps.runs.update(runId, (run) => run.skip(now));
    if (skipped?.state === 'skipped')
      await this.deps.audit.record({
        subject: skipped.owner.subject,
        action: 'run.skipped',
        outcome: 'skipped',
        details: { runId, automationId: skipped.automationId, limit: skipped.concurrency.limit },
      });
  }

  private async settle(runId: string, begun: Run, failed: { error: string; transient: boolean } | null): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    const current = await this.deps.runs.find(runId);
    if (!current || current.run.terminal) return;
    // Taken back meanwhile (this executor was judged dead, and the run retried): not this executor's to settle.
    if (current.run.state !== 'running' || current.run.lease?.holder !== this.deps.settings.holder) return;
    if (current.run.attempts.length !== begun.attempts.length) return;
    if (current.run.stopRequested) {
      const dropped = await this.deps.parked.drop(runId);
      const ended = await this.deps.runs.update(runId, (run) => run.cancel(now));
      if (ended)
        await this.deps.audit.record({
          subject: ended.owner.subject,
          action: 'run.stopped',
          outcome: 'cancelled',
          details: { runId, automationId: ended.automationId, droppedApprovals: dropped },
        });
      await this.deps.followUp.after(runId);
      return;
    }
    if (failed) {
      const after = await this.deps.runs.update(runId, (run) => run.attemptFailed(now, failed.error, failed.transient));
      if (after?.state === 'queued' && after.nextAttemptAt) {
        await this.deps.audit.record({
          subject: after.owner.subject,
          action: 'run.retrying',
          outcome: 'queued',
          details: { runId, automationId: after.automationId, attempt: after.attempts.length, retryAt: after.nextAttemptAt },
        });
        await this.deps.dispatcher.dispatch([runId], new Date(after.nextAttemptAt));
        return;
      }
      await this.deps.parked.drop(runId);
      await this.deps.followUp.after(runId);
      return;
    }
    if (await this.deps.parked.awaitingAnswer(runId)) {
      await this.deps.runs.update(runId, (run) => (run.state === 'running' ? run.park() : null));
      // An answer that landed before the run was parked found it running; look again.
      await this.deps.resume.ifAnswered(runId);
      return;
    }
    // Counted from the whole transcript: a call that failed in an earlier attempt counts too.
    const failedCalls = failedToolCalls(await this.deps.runs.messagesOf(runId));
    await this.deps.runs.update(runId, (run) => run.succeed(now, failedCalls));
    await this.deps.followUp.after(runId);
  }

  /** The transcript so far: on a first execution what the trigger brought, then the task prompt, open it. */
  private async transcript(run: Run): Promise<{ messages: UiMessage[]; continuing: UiMessage | null }> {
    const messages = await this.deps.runs.messagesOf(run.id);
    if (messages.length === 0) {
      const { prompt, input } = run.toPrimitives();
      // What the trigger brought comes first, the task last: the task is what the agent answers.
      const opening: UiMessage[] = [
        ...(input ? [{ id: this.deps.ids.mint('message'), role: 'user' as const, parts: [{ type: 'text' as const, text: input }] }] : []),
        { id: this.deps.ids.mint('message'), role: 'user', parts: [{ type: 'text', text: prompt }] },
      ];
      for (const message of opening) await this.deps.runs.putMessage(run.id, message);
      return { messages: opening, continuing: null };
    }
    const last = messages[messages.length - 1];
    return { messages, continuing: last?.role === 'assistant' ? last : null };
  }

  /** The automation its calls carry: the id (what its grants match), and the name while it exists. */
  private async callingAutomation(run: Run): Promise<CallingAutomation> {
    const loaded = await this.deps.automations.find(run.automationId);
    return { automationId: run.automationId, ...defined({ name: loaded ? loaded.automation.name : undefined }) };
  }

  private async renew(runId: string, abort: AbortController): Promise<void> {
    try {
      const renewed = await this.deps.runs.update(runId, (run) => run.renew(this.deps.settings.holder, this.leaseUntil()));
      // The lease is gone (the sweep judged this executor dead): stop working on a run taken back.
      if (!renewed) {
        this.abandoned.add(abort);
        abort.abort();
      }
    } catch (error) {
      this.deps.logger.warn('renewing a run lease failed', { runId, cause: error instanceof Error ? error.message : String(error) });
    }
  }

  private leaseUntil(): string {
    return new Date(this.deps.clock.now().getTime() + this.deps.settings.leaseMs).toISOString();
  }
}

function ownerOf(run: Run): Principal {
  const { subject, kind, name, email } = run.owner;
  return { subject, kind, ...defined({ name: name || undefined, email: email || undefined }) };
}
