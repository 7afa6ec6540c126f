import { z } from 'zod';
import type { GuardUseCases } from '../../../ports/use-cases/guard.js';
import { Approval, ApprovalList, DecidedApprovals, GrantList } from '../shapes/guard-shapes.js';
import { approvalRefParam, idParam } from '../shapes/path-params.js';
import { bare, json, jsonBody, route } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';
import { callerRoutes } from './caller-routes.js';

const decideBody = z.strictObject({
  approve: z.boolean(),
  remember: z.strictObject({ scope: z.enum(['tool', 'exact']), duration: z.enum(['session', 'standing']) }).optional(),
});

const batchBody = z.strictObject({
  ids: z.array(z.string().min(1).max(256).describe('An `apr_` id, or a parked tool-call id.')).min(1).max(100),
  approve: z.boolean(),
});

/** Approvals and grants. The `org` refusal runs in the floor before any of these. */
export function guardRoutes(guard: GuardUseCases): WireRoutes {
  const approval = callerRoutes(guard, { param: approvalRefParam, key: 'approvalId' });
  const grant = callerRoutes(guard, { param: idParam('grant'), key: 'grantId' });
  return principalFamily('Approvals and grants', [
    approval.list('/approvals', 'listApprovals', {
      summary: "List the caller's pending approvals",
      responses: { 200: json('Pending approvals.', ApprovalList) },
    }),
    // The literal batch route is registered ahead of /approvals/:id.
    route({
      id: 'decideApprovals',
      method: 'post',
      path: '/approvals/decide',
      summary: 'Decide several approvals, all or nothing',
      body: jsonBody(batchBody),
      responses: { 200: json('Every approval, decided.', DecidedApprovals) },
      errors: ['not-found', 'conflict', 'unavailable'],
      handle: async (ctx, { body }) => {
        ctx.body = await guard.decideApprovals.execute({ principal: principalOf(ctx), approvalIds: body.ids, approve: body.approve });
      },
    }),
    approval.get('/approvals/:id', 'getApproval', {
      summary: 'Read an approval',
      description:
        'While an approved call executes (the resume window) this answers `{"state": "pending"}` without `request`: keep polling until `executed`.',
      responses: { 200: json('The approval.', Approval) },
    }),
    approval.post('/approvals/:id/decide', 'decideApproval', {
      summary: 'Approve or deny a call',
      description:
        'An approved call runs exactly once, on the next turn (or at once for app actions and the door). `remember` also grants matching calls from now on.',
      body: jsonBody(decideBody),
      responses: { 200: json('The decided approval.', Approval) },
      errors: ['conflict', 'unavailable'],
    }),
    grant.list('/grants', 'listGrants', {
      summary: "List the caller's grants",
      responses: { 200: json('Grants.', GrantList) },
    }),
    grant.delete('/grants/:id', 'revokeGrant', {
      summary: 'Revoke a grant',
      responses: { 204: bare('Revoked.') },
    }),
  ]);
}
