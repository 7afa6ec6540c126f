import { EXECUTION_LEASE_MS } from '../../domain/guard/approval.js';
import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import { ATTR, type Telemetry } from '../../ports/telemetry.js';
import type { StreamedData, ToolRegistry } from '../../ports/tool-registry.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { ApprovalBook, LoadedApproval } from './approval-book.js';
import type { CallResult } from './call-result.js';
import { callSiteOf, placeOf } from './call-site.js';
import { ExecutionLease } from './execution-lease.js';
import type { PresentCredentials } from './host-access.js';
import type { ToolOutcome, ToolRunner } from './tool-runner.js';
import { defined } from '../../domain/defined.js';

export interface ExecuteApprovedInput {
  readonly approvalId: string;
  readonly principal: Principal;
  readonly credentials?: PresentCredentials;
  readonly signal: AbortSignal;
  readonly writeData?: (part: StreamedData) => void;
}

export interface ExecutionSettings {
  /** How long an execution lease lasts (renewed every third of it while the tool runs). */
  readonly leaseMs: number;
}

/** What ExecuteApproved is built from. */
export interface ExecuteApprovedDeps {
  readonly approvals: ApprovalBook;
  readonly tools: ToolRegistry;
  readonly runner: ToolRunner;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly logger: Logger;
  readonly settings?: ExecutionSettings;
  /** The execution joins the trace of the call that parked it (`NoTelemetry`: no span). */
  readonly telemetry: Telemetry;
}

/**
 * Runs an approved call exactly once: the executor claims approved → executing on the revision it
 * read, so of fifty racing executors (or two instances) one runs the tool and the rest get null.
 * It holds the call on a short lease it renews while the tool runs; if it dies (a crash, a kill),
 * the lease lapses and the approval reads executed and interrupted within that lease.
 */
export class ExecuteApproved {
  private readonly settings: ExecutionSettings;

  constructor(private readonly deps: ExecuteApprovedDeps) {
    this.settings = deps.settings ?? { leaseMs: EXECUTION_LEASE_MS };
  }

  /** The call's result, or null when it is not approved (any more) or another executor won. */
  async execute(input: ExecuteApprovedInput): Promise<CallResult | null> {
    const loaded = await this.deps.approvals.ownedBy(input.principal.subject, input.approvalId);
    return this.run(loaded, input);
  }

  /** Every approved call of a thread, oldest first, each exactly once. */
  async forThread(
    threadId: string,
    input: Omit<ExecuteApprovedInput, 'approvalId'>,
  ): Promise<Array<{ loaded: LoadedApproval; result: CallResult }>> {
    return this.allApproved({ thread: threadId }, input);
  }

  /** Every approved call of an automation's run, oldest first, each exactly once. */
  async forRun(
    runId: string,
    input: Omit<ExecuteApprovedInput, 'approvalId'>,
  ): Promise<Array<{ loaded: LoadedApproval; result: CallResult }>> {
    return this.allApproved({ run: runId }, input);
  }

  private async allApproved(
    scope: Record<string, string>,
    input: Omit<ExecuteApprovedInput, 'approvalId'>,
  ): Promise<Array<{ loaded: LoadedApproval; result: CallResult }>> {
    const approved = await this.deps.approvals.all({ subject: input.principal.subject, ...scope, state: 'approved' });
    const results: Array<{ loaded: LoadedApproval; result: CallResult }> = [];
    for (const loaded of approved.reverse()) {
      const result = await this.run(loaded, input);
      if (result) results.push({ loaded, result });
    }
    return results;
  }

  /**
   * The approval holds the input as it was asked for; it is checked again now (a refinement may
   * read state that changed) and the tool gets it parsed, as it would have at call time.
   */
  private async runApproved(loaded: LoadedApproval, input: Omit<ExecuteApprovedInput, 'approvalId'>): Promise<ToolOutcome> {
    const { request } = loaded.approval;
    const tool = this.deps.tools.get(request.tool);
    if (!tool) return { ok: false, error: `The tool "${request.tool}" is no longer registered` };
    const check = await tool.checkInput(request.input);
    if (!check.ok)
      return { ok: false, error: `The approved input no longer passes the tool's schema: ${check.issues.join('; ')}`, code: 'validation' };
    return this.deps.runner.run({
      tool,
      input: check.value,
      // Run where it was asked for, by whoever executes it now.
      ...callSiteOf({ ...input, toolCallId: request.toolCallId, ...placeOf(request) }),
      authority: { subject: loaded.approval.subject, approvalId: loaded.approval.id },
    });
  }

  private async run(loaded: LoadedApproval, input: Omit<ExecuteApprovedInput, 'approvalId'>): Promise<CallResult | null> {
    const now = this.deps.clock.now().toISOString();
    if (loaded.approval.stateAt(now) !== 'approved') return null;
    const executing = loaded.approval.startExecution(now, this.settings.leaseMs);
    if (!(await this.deps.approvals.swap(loaded, executing))) return null;

    const { request } = loaded.approval;
    const lease = new ExecutionLease({
      approvals: this.deps.approvals,
      clock: this.deps.clock,
      logger: this.deps.logger,
      approvalId: loaded.approval.id,
      leaseMs: this.settings.leaseMs,
      callerSignal: input.signal,
    });
    let outcome: ToolOutcome;
    try {
      outcome = await this.traced(loaded, () => this.runApproved(loaded, { ...input, signal: lease.signal }));
    } catch (error) {
      outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      await lease.release();
    }
    await this.finish(loaded.approval.id, outcome);
    await this.deps.audit.record({
      subject: loaded.approval.subject,
      action: 'approval.executed',
      outcome: outcome.ok ? 'ok' : 'failed',
      details: { approvalId: loaded.approval.id, tool: request.tool },
    });
    return outcome.ok
      ? { status: 'ran', output: outcome.output, because: 'approval' }
      : {
          status: 'failed',
          error: outcome.error,
          ...defined({ code: outcome.code || undefined, reason: outcome.reason || undefined }),
        };
  }

  /**
   * The execution in a `porter.approval.execute` span whose parent is the tool call that parked it
   * (stored with the approval), so it joins that turn's trace; what runs it now is linked.
   */
  private traced(loaded: LoadedApproval, work: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const telemetry = this.deps.telemetry;
    const { approval } = loaded;
    return telemetry.span(
      'porter.approval.execute',
      () => ({
        [ATTR.approvalId]: approval.id,
        [ATTR.toolName]: approval.request.tool,
        [ATTR.toolCallId]: approval.request.toolCallId,
        [ATTR.risk]: approval.request.risk,
        [ATTR.venue]: approval.request.venue,
        [ATTR.presence]: approval.request.presence,
        [ATTR.threadId]: approval.request.threadId,
        [ATTR.runId]: approval.request.runId,
        [ATTR.automationId]: approval.request.automationId,
        [ATTR.subject]: telemetry.subject(approval.subject),
      }),
      async (span) => {
        const outcome = await work();
        span.set({ [ATTR.outcome]: outcome.ok ? 'ok' : 'failed' });
        return outcome;
      },
      { parent: approval.traceparent },
    );
  }

  /** Records the outcome on the latest revision (the heartbeat moved it on meanwhile). */
  private async finish(approvalId: string, outcome: ToolOutcome): Promise<void> {
    const executed = outcome.ok
      ? ({ kind: 'executed', ok: true, output: outcome.output } as const)
      : ({ kind: 'executed', ok: false, error: outcome.error } as const);
    await retryOnConflict(
      async () => {
        const current = await this.deps.approvals.find(approvalId);
        if (!current || !current.approval.isExecuting) return;
        return (await this.deps.approvals.swap(current, current.approval.finish(executed))) ? undefined : LOST_RACE;
      },
      {
        exhausted: () =>
          this.deps.logger.error('an executed call could not record its outcome; it will read as interrupted', { approvalId }),
      },
    );
  }
}
