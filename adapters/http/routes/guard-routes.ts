import { z } from 'zod';
import type { GuardUseCases } from '../../../ports/use-cases/guard.js';
import { parse } from '../validation.js';
import type { WireRoutes } from '../wire-routes.js';
import { bodyOf, principalOf } from '../wire-state.js';
import { pageQuery } from './system-routes.js';

const approvalId = z.string().regex(/^apr_[0-9A-Za-z]{10,40}$/, 'must be an approval id (apr_…)');

const decideBody = z.strictObject({
  approve: z.boolean(),
  remember: z.strictObject({ scope: z.enum(['tool', 'exact']), duration: z.enum(['session', 'standing']) }).optional(),
});

const batchBody = z.strictObject({
  ids: z.array(approvalId).min(1).max(100),
  approve: z.boolean(),
});

/** Approvals and grants. The `org` refusal runs in the floor before any of these. */
export function guardRoutes(guard: GuardUseCases): WireRoutes {
  return {
    access: 'principal',
    register(router) {
      router.get('/approvals', async (ctx) => {
        ctx.body = await guard.listApprovals.execute({ principal: principalOf(ctx), ...parse(pageQuery, ctx.query, 'query') });
      });
      // The literal batch route is registered ahead of /approvals/:id.
      router.post('/approvals/decide', async (ctx) => {
        const body = parse(batchBody, bodyOf(ctx), 'body');
        ctx.body = await guard.decideApprovals.execute({ principal: principalOf(ctx), approvalIds: body.ids, approve: body.approve });
      });
      router.get('/approvals/:id', async (ctx) => {
        ctx.body = await guard.getApproval.execute({ principal: principalOf(ctx), approvalId: ctx.params.id! });
      });
      router.post('/approvals/:id/decide', async (ctx) => {
        const body = parse(decideBody, bodyOf(ctx), 'body');
        ctx.body = await guard.decideApproval.execute({ principal: principalOf(ctx), approvalId: ctx.params.id!, approve: body.approve, ...(body.remember ? { remember: body.remember } : {}) });
      });
      router.get('/grants', async (ctx) => {
        ctx.body = await guard.listGrants.execute({ principal: principalOf(ctx), ...parse(pageQuery, ctx.query, 'query') });
      });
      router.delete('/grants/:id', async (ctx) => {
        await guard.revokeGrant.execute({ principal: principalOf(ctx), grantId: ctx.params.id! });
        ctx.status = 204;
      });
    },
  };
}
