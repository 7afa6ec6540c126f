import type { Approval } from './approval.js';
import { Grant } from './grant.js';

/**
 * What a yes leaves behind, if anything.
 *
 * An automation's arming ask asks for one thing: a standing grant of the whole tool for that
 * automation's runs. Approving it makes exactly that; `remember` is not kept on such an ask, so a
 * ticked "always allow this tool" cannot widen it to the person's chats, apps or the door.
 *
 * Any other approval leaves a grant only when the person asked to remember it, with the scope and
 * duration they chose, keyed to the door consent it was given under; one raised by an
 * automation's run applies to that automation's runs only.
 */
export function grantFromApproval(approval: Approval, mintId: () => string, at: string): Grant | null {
  const { request } = approval;
  const props = approval.toPrimitives();
  const appliesTo = approval.grantReach;
  if (approval.asksForStandingGrant) {
    return Grant.create({
      id: mintId(),
      subject: approval.subject,
      tool: request.tool,
      scope: 'tool',
      inputDigest: null,
      duration: 'standing',
      session: null,
      evidence: null,
      appliesTo,
      origin: { kind: 'automation', automationId: request.automationId!, approvalId: approval.id },
      createdAt: at,
    });
  }
  const remember = approval.remember;
  if (!remember) return null;
  return Grant.create({
    id: mintId(),
    subject: approval.subject,
    tool: request.tool,
    scope: remember.scope,
    inputDigest: remember.scope === 'exact' ? props.inputDigest : null,
    duration: remember.duration,
    session: remember.duration === 'session' ? request.session : null,
    evidence: props.evidence,
    appliesTo,
    origin: { kind: 'approval', approvalId: approval.id },
    createdAt: at,
  });
}
