import { z } from 'zod';
import type { GuardUseCases } from '../../../ports/use-cases/guard.js';
import { Approval, ApprovalList, DecidedApprovals, GrantList } from '../shapes/guard-shapes.js';
import { approvalRefParam, idParam } from '../shapes/path-params.js';
import { bare, json, jsonBody, route } from '../wire-route.js';
import type { WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';
import { pageQuery } from './system-routes.js';

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
  return {
    access: 'principal',
    tag: 'Approvals and grants',
    routes: [
      route({
        id: 'listApprovals',
        method: 'get',
        path: '/approvals',
        summary: "List the caller's pending approvals",
        query: pageQuery,
        responses: { 200: json('Pending approvals.', ApprovalList) },
        handle: async (ctx, { query }) => {
          ctx.body = await guard.listApprovals.execute({ principal: principalOf(ctx), ...query });
        },
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
      route({
        id: 'getApproval',
        method: 'get',
        path: '/approvals/:id',
        summary: 'Read an approval',
        description:
          'While an approved call executes (the resume window) this answers `{"state": "pending"}` without `request`: keep polling until `executed`.',
        params: { id: approvalRefParam },
        responses: { 200: json('The approval.', Approval) },
        handle: async (ctx, { params }) => {
          ctx.body = await guard.getApproval.execute({ principal: principalOf(ctx), approvalId: params.id });
        },
      }),
      route({
        id: 'decideApproval',
        method: 'post',
        path: '/approvals/:id/decide',
        summary: 'Approve or deny a call',
        description:
          'An approved call runs exactly once, on the next turn (or at once for app actions and the door). `remember` also grants matching calls from now on.',
        params: { id: approvalRefParam },
        body: jsonBody(decideBody),
        responses: { 200: json('The decided approval.', Approval) },
        errors: ['conflict', 'unavailable'],
        handle: async (ctx, { params, body }) => {
          ctx.body = await guard.decideApproval.execute({
            principal: principalOf(ctx),
            approvalId: params.id,
            approve: body.approve,
            ...(body.remember ? { remember: body.remember } : {}),
          });
        },
      }),
      route({
        id: 'listGrants',
        method: 'get',
        path: '/grants',
        summary: "List the caller's grants",
        query: pageQuery,
        responses: { 200: json('Grants.', GrantList) },
        handle: async (ctx, { query }) => {
          ctx.body = await guard.listGrants.execute({ principal: principalOf(ctx), ...query });
        },
      }),
      route({
        id: 'revokeGrant',
        method: 'delete',
        path: '/grants/:id',
        summary: 'Revoke a grant',
        params: { id: idParam('grant') },
        responses: { 204: bare('Revoked.') },
        handle: async (ctx, { params }) => {
          await guard.revokeGrant.execute({ principal: principalOf(ctx), grantId: params.id });
          ctx.status = 204;
        },
      }),
    ],
  };
}
