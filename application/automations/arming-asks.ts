import type { Automation } from '../../domain/automations/automation.js';
import { Approval } from '../../domain/guard/approval.js';
import { asksByDefault } from '../../domain/guard/risk.js';
import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { ToolRegistry } from '../../ports/tool-registry.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { ApprovalBook } from '../guard/approval-book.js';
import { inputDigest } from '../guard/digest.js';
import type { GrantBook } from '../guard/grant-book.js';

/** A standing-grant ask waiting in the owner's `/approvals`. */
export interface ArmingAsk {
  readonly approvalId: string;
  readonly tool: string;
}

/** What ArmingAsks is built from. */
export interface ArmingAsksDeps {
  readonly approvals: ApprovalBook;
  readonly grants: GrantBook;
  readonly tools: ToolRegistry;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly approvalTtlMs: number;
}

/**
 * The standing-grant asks an automation raises when armed: one approval per tool of its task that
 * would ask while the owner is away (writes, destructive actions, egress) and that no standing
 * grant covers for this automation yet. They are ordinary approvals, decided in `/approvals`; an
 * approval leaves a standing grant that applies to this automation's runs only
 * (`grantFromApproval`), a denial disarms the automation (the arming hook).
 */
export class ArmingAsks {
  constructor(private readonly deps: ArmingAsksDeps) {}

  async raise(automation: Automation): Promise<ArmingAsk[]> {
    const now = this.deps.clock.now();
    const owner: Principal = automation.owner;
    const pending = await this.pending(automation.id);
    const asks: ArmingAsk[] = [];
    for (const name of new Set(automation.task.tools ?? [])) {
      const tool = this.deps.tools.get(name);
      if (!tool) continue;
      const effective = { risk: tool.risk, egress: tool.egress ?? false };
      if (!asksByDefault(effective)) continue;
      const standing = (await this.deps.grants.activeFor(owner.subject, name)).some((grant) => grant.standsFor(automation.id));
      if (standing) continue;
      const waiting = pending.find((approval) => approval.request.tool === name);
      if (waiting) {
        asks.push({ approvalId: waiting.id, tool: name });
        continue;
      }
      const approval = Approval.park({
        id: this.deps.ids.mint('approval'),
        call: {
          toolCallId: this.deps.ids.mint('toolCall'),
          tool: name,
          input: {},
          inputDigest: inputDigest({}),
          principal: owner,
          venue: 'automation',
          presence: 'away',
          session: automation.askSession,
          automation: { automationId: automation.id, name: automation.name },
          effective,
        },
        preview: `Let the automation “${automation.name}” use ${name} while you are away: a standing grant that applies only when “${automation.name}” runs`,
        now: now.toISOString(),
        expiresAt: new Date(now.getTime() + this.deps.approvalTtlMs).toISOString(),
      });
      await this.deps.approvals.save(approval);
      await this.deps.audit.record({
        subject: owner.subject,
        action: 'approval.parked',
        outcome: 'pending',
        details: { approvalId: approval.id, tool: name, venue: 'automation', automationId: automation.id },
      });
      asks.push({ approvalId: approval.id, tool: name });
    }
    return asks;
  }

  /** Withdraws the automation's unanswered asks (it was disarmed or deleted). */
  async drop(automationId: string): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    for (const loaded of await this.deps.approvals.all({ automation: automationId, state: 'pending' })) {
      // A call one of its runs parked is the run's to drop (ParkedApprovals), not the arming's.
      if (loaded.approval.request.runId) continue;
      const expired = loaded.approval.expire(now, 'dropped');
      if (expired) await this.deps.approvals.swap(loaded, expired);
    }
  }

  private async pending(automationId: string): Promise<Approval[]> {
    const now = this.deps.clock.now().toISOString();
    return (await this.deps.approvals.all({ automation: automationId, state: 'pending' }))
      .map((loaded) => loaded.approval)
      .filter((approval) => !approval.request.runId && approval.isPendingAt(now));
  }
}
