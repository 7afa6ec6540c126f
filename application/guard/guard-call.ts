import { Approval } from '../../domain/guard/approval.js';
import { decide } from '../../domain/guard/decide.js';
import { previewsInDryRun } from '../../domain/guard/dry-run.js';
import type { CallingAutomation, RuledCall } from '../../domain/guard/tool-call.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { RegisteredTool, ToolRegistry } from '../../ports/tool-registry.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { EgressPreview } from './egress-preview.js';
import type { ApprovalBook } from './approval-book.js';
import type { CallResult } from './call-result.js';
import { callSiteOf, conversationOf, type CallSite } from './call-site.js';
import { inputDigest } from './digest.js';
import type { ExecuteApproved } from './execute-approved.js';
import type { GrantBook } from './grant-book.js';
import type { GuardSettings } from './guard-settings.js';
import type { ToolRunner } from './tool-runner.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import { LimitReached } from '../../domain/errors.js';
import { waitInWords } from '../../domain/usage/wait-in-words.js';
import { defined } from '../../domain/defined.js';

export interface GuardedCall extends CallSite {
  readonly tool: string;
  readonly input: unknown;
  readonly evidence?: string;
  /** Set by an automation's run only: that automation's grants cover this call, no other's. */
  readonly automation?: CallingAutomation;
  /**
   * The door's retry rule: an identical call in the same session reuses a parked approval (same
   * tool-call id) and runs once on a one-off approval; after that it asks again.
   */
  readonly reuseParked?: boolean;
  /**
   * With `reuseParked`: the approval this retry answers (the door's client retrying after the person
   * was sent to approve it). Once that approval ran for a racing identical retry, this one reads its
   * outcome instead of asking the person again for a new one.
   */
  readonly continues?: string;
  /** A dry run: a call that would write, destroy or reach outside is previewed, not run (reads run). */
  readonly dryRun?: boolean;
  /** The tools whose output the calling model has read (the agent loop knows): handed to `resolveRisk`. */
  readonly toolOutputsRead?: ReadonlyArray<string>;
  /**
   * What a tripped breaker does to a call that is not a run's while its person is away: `park`
   * (the default) asks the person, who is there in a turn; `refuse` throws LimitReached saying
   * when to retry, for a caller that retries on its own (the door), so nobody is asked at all.
   */
  readonly overBreaker?: 'park' | 'refuse';
}

/** What GuardCall is built from. */
export interface GuardCallDeps {
  readonly tools: ToolRegistry;
  readonly approvals: ApprovalBook;
  readonly grants: GrantBook;
  readonly runner: ToolRunner;
  readonly executeApproved: ExecuteApproved;
  readonly settings: GuardSettings;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  /** Adds where an egress call goes to its approval card; absent, the card shows the tool's preview alone. */
  readonly egressPreview: EgressPreview;
  /** The subject's `toolCalls` budget and the breakers (`NoUsageMeter`: nothing is metered and no breaker trips). */
  readonly meter: UsageMeter;
}

/**
 * The guard: every action the agent, an app, an automation or the door takes comes through here.
 * Risk is resolved at call time, then grants, then policy; what is not let through is parked as
 * an Approval, or blocked.
 */
export class GuardCall {
  constructor(protected readonly deps: GuardCallDeps) {}

  async execute(call: GuardedCall): Promise<CallResult> {
    const tool = this.deps.tools.get(call.tool);
    if (!tool) return { status: 'invalid', issues: [`There is no tool named "${call.tool}"`] };
    const check = await tool.checkInput(call.input);
    if (!check.ok) return { status: 'invalid', issues: check.issues };
    // What the model sent is what is digested, parked and shown; the tool sees it parsed.
    const parsed = check.value;

    let digest: string | undefined;
    const ruled: RuledCall = {
      toolCallId: call.toolCallId,
      tool: tool.name,
      input: call.input,
      // Worked out when something reads it (an exact grant, a parked approval): a call that just runs never does.
      get inputDigest() {
        return (digest ??= inputDigest(call.input));
      },
      principal: call.principal,
      venue: call.venue,
      presence: call.presence,
      session: call.session,
      ...defined({ evidence: call.evidence || undefined, automation: call.venue === 'automation' ? call.automation : undefined }),
      effective: (await tool.resolveRisk?.(parsed, {
        principal: call.principal,
        venue: call.venue,
        ...defined({ toolOutputsRead: call.toolOutputsRead }),
      })) ?? { risk: tool.risk, egress: tool.egress ?? false },
    };

    // Grants can only turn an ask into a run: a call that runs (or is blocked) without them is
    // decided without reading them, which keeps reads to one store round trip fewer.
    const unaided = decide(ruled, [], this.deps.settings.policy);
    if (call.dryRun && previewsInDryRun(ruled.effective, unaided)) return previewed(ruled, await this.previewOf(ruled, call, tool, parsed));
    const decision =
      unaided.kind === 'ask'
        ? decide(ruled, await this.deps.grants.activeFor(call.principal.subject, tool.name), this.deps.settings.policy)
        : unaided;
    switch (decision.kind) {
      case 'run': {
        const tripped = await this.breakers(ruled, call);
        if (tripped) return this.park(ruled, call, tool, parsed);
        // A call over the subject's tool-call budget throws LimitReached: the turn or run ends on it.
        await this.deps.meter.charge(call.principal, 'toolCalls');
        const authority = decision.grantId ? { subject: call.principal.subject, grantId: decision.grantId } : null;
        const outcome = await this.deps.runner.run({ ...this.runOf(call, tool, parsed), authority });
        return outcome.ok
          ? { status: 'ran', output: outcome.output, because: decision.because }
          : {
              status: 'failed',
              error: outcome.error,
              ...defined({ code: outcome.code || undefined, reason: outcome.reason || undefined }),
            };
      }
      case 'block':
        await this.deps.audit.record({
          subject: call.principal.subject,
          action: 'guard.blocked',
          outcome: 'blocked-by-policy',
          details: { tool: tool.name, venue: call.venue },
        });
        return { status: 'blocked', reason: `Policy blocks ${tool.name} here` };
      case 'ask': {
        // The door's retry rule applies only to a call that would ask: a policy block stays final.
        const retried = call.reuseParked ? await this.retry(ruled, call) : null;
        return retried ?? this.park(ruled, call, tool, parsed);
      }
    }
  }

  /**
   * The breakers, for a call about to run: at most `toolCallsPerMinute` a minute per subject, and
   * `writesPerRun` write or destructive calls per run. A tripped one is audited; then the call
   * parks for approval when the person is there (true), the run stops when they are away
   * (LimitReached thrown: the run ends failed, saying which breaker), and a caller that asked for
   * refusals (`overBreaker: 'refuse'`, the door) is refused with when to retry (LimitReached).
   */
  private async breakers(ruled: RuledCall, call: GuardedCall): Promise<boolean> {
    const meter = this.deps.meter;
    const subject = call.principal.subject;
    const tripped =
      (await meter.breaker('toolCallsPerMinute', subject)) ??
      (call.runId && ruled.effective.risk !== 'read' ? await meter.breaker('writesPerRun', call.runId) : null);
    if (!tripped) return false;
    const { budget, refusal } = tripped;
    const stops = Boolean(call.runId) && call.presence === 'away';
    const refuses = !stops && call.overBreaker === 'refuse';
    await this.deps.audit.record({
      subject,
      action: 'breaker.tripped',
      outcome: stops ? 'run-stopped' : refuses ? 'rate-limited' : 'parked',
      details: {
        breaker: budget.name,
        max: budget.max,
        tool: ruled.tool,
        venue: call.venue,
        ...conversationOf(call),
      },
    });
    if (!stops && !refuses) return true;
    const what = budget.name === 'writesPerRun' ? `${budget.max} write calls in this run` : `${budget.max} tool calls a minute`;
    const retry = refusal.retryAfterSeconds === null ? '' : `; try again ${waitInWords(refusal.retryAfterSeconds)}`;
    throw new LimitReached(
      budget.name,
      refusal.retryAfterSeconds,
      stops
        ? `The ${budget.name} breaker tripped (${what}): ${ruled.tool} was not run and the run stops here`
        : `The ${budget.name} breaker tripped (${what}): ${ruled.tool} was not run${retry}`,
    );
  }

  private async park(ruled: RuledCall, call: GuardedCall, tool: RegisteredTool, parsed: unknown): Promise<CallResult> {
    const now = this.deps.clock.now();
    const app = (await tool.approvalContext?.(parsed, { principal: call.principal })) ?? null;
    const approval = Approval.park({
      id: this.deps.ids.mint('approval'),
      call: ruled,
      preview: await this.previewOf(ruled, call, tool, parsed),
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.deps.settings.approvalTtlMs).toISOString(),
      ...conversationOf(call),
      ...defined({ appId: app?.appId, contentHash: app?.contentHash }),
    });
    await this.deps.approvals.save(approval);
    await this.deps.audit.record({
      subject: call.principal.subject,
      action: 'approval.parked',
      outcome: 'pending',
      details: { approvalId: approval.id, tool: tool.name, venue: call.venue },
    });
    return {
      status: 'parked',
      parked: { approvalId: approval.id, toolCallId: call.toolCallId, risk: ruled.effective.risk, preview: approval.request.preview },
    };
  }

  /** A parked or approved identical call in this session: reuse it instead of asking again. */
  private async retry(ruled: RuledCall, call: GuardedCall): Promise<CallResult | null> {
    const now = this.deps.clock.now().toISOString();
    const same = await this.deps.approvals.all({
      subject: call.principal.subject,
      call: `${call.session}:${ruled.tool}:${ruled.inputDigest}`,
    });
    for (const { approval } of same) {
      const state = approval.stateAt(now);
      if (approval.id === call.continues && (state === 'executing' || state === 'executed')) return this.takenByAnotherRetry(approval.id);
      if (state === 'pending') {
        return {
          status: 'parked',
          parked: {
            approvalId: approval.id,
            toolCallId: approval.request.toolCallId,
            risk: approval.request.risk,
            preview: approval.request.preview,
          },
        };
      }
      if (state === 'approved') {
        const ran = await this.deps.executeApproved.execute({
          approvalId: approval.id,
          principal: call.principal,
          credentials: call.credentials,
          signal: call.signal,
        });
        return ran ?? (await this.takenByAnotherRetry(approval.id));
      }
    }
    return null;
  }

  /**
   * An identical retry racing this one took the approval first: this call is that one, so it
   * answers with its outcome (or that it is still running) rather than asking all over again.
   */
  private async takenByAnotherRetry(approvalId: string): Promise<CallResult> {
    // As of now: an execution whose executor died reads executed and interrupted.
    const outcome = (await this.deps.approvals.find(approvalId))?.approval.outcomeAt(this.deps.clock.now().toISOString());
    if (outcome?.kind === 'executed') {
      return outcome.ok ? { status: 'ran', output: outcome.output, because: 'approval' } : { status: 'failed', error: outcome.error };
    }
    return {
      status: 'failed',
      error: 'This approved call is already running for an identical request; its result will follow there',
      code: 'conflict',
    };
  }

  /** What a person is shown of the call: the tool's preview, and for egress where it would connect. */
  private async previewOf(ruled: RuledCall, call: GuardedCall, tool: RegisteredTool, parsed: unknown): Promise<string> {
    const preview = tool.preview?.(parsed) ?? defaultPreview(tool.name, call.input);
    return ruled.effective.egress ? this.deps.egressPreview.describe(preview, call.input) : preview;
  }

  private runOf(call: GuardedCall, tool: RegisteredTool, input: unknown) {
    return { tool, input, ...callSiteOf(call) };
  }
}

/** A dry run's answer for a call it did not run: the model and the transcript see what it would have done. */
function previewed(ruled: RuledCall, preview: string): CallResult {
  const { risk, egress } = ruled.effective;
  return { status: 'ran', output: { dryRun: true, executed: false, preview, risk, egress }, because: 'dry-run' };
}

function defaultPreview(tool: string, input: unknown): string {
  const json = JSON.stringify(input ?? {});
  return `${tool} ${json.length > 200 ? `${json.slice(0, 197)}...` : json}`;
}
