import type { Approval } from '../../domain/guard/approval.js';
import type { ApprovalHook } from '../guard/approval-hooks.js';
import type { ResumeRun } from './resume-run.js';

/** When the owner answers a call a run parked, the run goes on (once nothing else waits). */
export class ResumeHook implements ApprovalHook {
  constructor(private readonly resume: ResumeRun) {}

  async onDecided(approval: Approval): Promise<void> {
    if (approval.request.runId) await this.resume.ifAnswered(approval.request.runId);
  }
}
