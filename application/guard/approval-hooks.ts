import type { Approval } from '../../domain/guard/approval.js';

/**
 * Families that must react inside a decision (an automation disarms when its standing-grant ask is
 * denied) register a hook; it runs before the decision returns.
 */
export interface ApprovalHook {
  onDecided(approval: Approval, approved: boolean): Promise<void>;
}
