import type { Principal } from '../../domain/principal.js';
import type { CallingAutomation } from '../../domain/guard/tool-call.js';
import type { Run } from '../../domain/runs/run.js';
import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { AutomationBook } from '../automations/automation-book.js';
import type { AgentTurn } from '../threads/agent-turn.js';
import type { ParkedApprovals } from './parked-approvals.js';
import type { ResumeRun } from './resume-run.js';
import type { RunBook } from './run-book.js';

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
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly logger: Logger;
  readonly settings: RunExecutionSettings;
}

/**
 * Executes one run through the agent loop (AgentTurn), away from the owner: venue `automation`,
 * presence `away`, carrying its automation, so only standing grants that apply anywhere or to this
 * automation let calls through and anything else parks for the owner. The executor first claims
 * the queued run (one winner across instances), holds a lease it renews while working, and
 * between steps reads the stored run, so a stop sent to any instance reaches it: the current step
 * finishes, its calls drain, the run's parked approvals are dropped and the run ends cancelled.
 */
export class ExecuteRun {
  private readonly working = new Set<AbortController>();
  private closing = false;

  private readonly runs: RunBook;
  private readonly automations: AutomationBook;
  private readonly agent: AgentTurn;
  private readonly parked: ParkedApprovals;
  private readonly resume: ResumeRun;
  private readonly ids: Ids;
  private readonly clock: Clock;
  private readonly audit: AuditTrail;
  private readonly logger: Logger;
  private readonly settings: RunExecutionSettings;

  constructor(deps: ExecuteRunDeps) {
    this.runs = deps.runs;
    this.automations = deps.automations;
    this.agent = deps.agent;
    this.parked = deps.parked;
    this.resume = deps.resume;
    this.ids = deps.ids;
    this.clock = deps.clock;
    this.audit = deps.audit;
    this.logger = deps.logger;
    this.settings = deps.settings;
  }

  async execute(runId: string): Promise<void> {
    if (this.closing) return;
    const loaded = await this.runs.find(runId);
    const begun = loaded?.run.begin(this.settings.holder, this.clock.now().toISOString(), this.leaseUntil());
    if (!loaded || !begun || !(await this.runs.swap(loaded, begun))) return;

    const abort = new AbortController();
    this.working.add(abort);
    const heartbeat = setInterval(() => void this.renew(runId, abort), Math.max(50, Math.floor(this.settings.leaseMs / 3)));
    heartbeat.unref?.();
    let finishReason: string | undefined;
    let errorText: string | null = null;
    try {
      const { messages, continuing } = await this.transcript(begun);
      const automation = await this.callingAutomation(begun);
      await this.agent.run({
        principal: ownerOf(begun),
        threadId: runId,
        scope: {
          venue: 'automation',
          presence: 'away',
          session: runId,
          runId,
          automation,
          save: (message) => this.runs.putMessage(runId, message),
          shouldStop: async () => abort.signal.aborted || ((await this.runs.find(runId))?.run.stopRequested ?? true),
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
    } finally {
      clearInterval(heartbeat);
      this.working.delete(abort);
    }
    // Shutting down mid-run: the lease lapses and the next sweep ends the run, on whatever instance.
    if (this.closing) return;
    try {
      await this.settle(runId, finishReason === 'error' ? (errorText ?? 'The run failed') : null);
    } catch (error) {
      this.logger.error('a run could not be settled; the sweep will end it', {
        runId,
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Stops taking runs and abandons the ones in flight (their leases lapse). */
  close(): void {
    this.closing = true;
    for (const abort of this.working) abort.abort();
  }

  private async settle(runId: string, error: string | null): Promise<void> {
    const now = this.clock.now().toISOString();
    const current = await this.runs.find(runId);
    if (!current || current.run.terminal) return;
    if (current.run.stopRequested) {
      const dropped = await this.parked.drop(runId);
      const ended = await this.runs.update(runId, (run) => run.cancel(now));
      if (ended)
        await this.audit.record({
          subject: ended.owner.subject,
          action: 'run.stopped',
          outcome: 'cancelled',
          details: { runId, automationId: ended.automationId, droppedApprovals: dropped },
        });
      return;
    }
    if (error) {
      await this.parked.drop(runId);
      await this.runs.update(runId, (run) => run.fail(now, error));
      return;
    }
    if (await this.parked.awaitingAnswer(runId)) {
      await this.runs.update(runId, (run) => (run.state === 'running' ? run.park() : null));
      // An answer that landed before the run was parked found it running; look again.
      await this.resume.ifAnswered(runId);
      return;
    }
    await this.runs.update(runId, (run) => run.succeed(now));
  }

  /** The transcript so far: on a first execution what the trigger brought, then the task prompt, open it. */
  private async transcript(run: Run): Promise<{ messages: UiMessage[]; continuing: UiMessage | null }> {
    const messages = await this.runs.messagesOf(run.id);
    if (messages.length === 0) {
      const { prompt, input } = run.toPrimitives();
      // What the trigger brought comes first, the task last: the task is what the agent answers.
      const opening: UiMessage[] = [
        ...(input ? [{ id: this.ids.mint('message'), role: 'user' as const, parts: [{ type: 'text' as const, text: input }] }] : []),
        { id: this.ids.mint('message'), role: 'user', parts: [{ type: 'text', text: prompt }] },
      ];
      for (const message of opening) await this.runs.putMessage(run.id, message);
      return { messages: opening, continuing: null };
    }
    const last = messages[messages.length - 1];
    return { messages, continuing: last?.role === 'assistant' ? last : null };
  }

  /** The automation its calls carry: the id (what its grants match), and the name while it exists. */
  private async callingAutomation(run: Run): Promise<CallingAutomation> {
    const loaded = await this.automations.find(run.automationId);
    return { automationId: run.automationId, ...(loaded ? { name: loaded.automation.name } : {}) };
  }

  private async renew(runId: string, abort: AbortController): Promise<void> {
    try {
      const renewed = await this.runs.update(runId, (run) => run.renew(this.settings.holder, this.leaseUntil()));
      // The lease is gone (the sweep judged this executor dead): stop working on a run that ended.
      if (!renewed) abort.abort();
    } catch (error) {
      this.logger.warn('renewing a run lease failed', { runId, cause: error instanceof Error ? error.message : String(error) });
    }
  }

  private leaseUntil(): string {
    return new Date(this.clock.now().getTime() + this.settings.leaseMs).toISOString();
  }
}

function ownerOf(run: Run): Principal {
  const { subject, kind, name, email } = run.owner;
  return { subject, kind, ...(name ? { name } : {}), ...(email ? { email } : {}) };
}
