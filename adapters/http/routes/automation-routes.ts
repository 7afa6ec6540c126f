import { z } from 'zod';
import { WEBHOOK_SOURCE_NAME } from '../../../domain/webhooks/delivery.js';
import type { AutomationUseCases } from '../../../ports/use-cases/automations.js';
import { parse } from '../validation.js';
import type { WireRoutes } from '../wire-routes.js';
import { bodyOf, principalOf } from '../wire-state.js';
import { pageQuery } from './system-routes.js';

const trigger = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('schedule'), cron: z.string().trim().min(1).max(120), timezone: z.string().min(1).max(64).optional() }),
  z.strictObject({ kind: z.literal('webhook'), source: z.string().regex(WEBHOOK_SOURCE_NAME, 'must be a registered source name (a-z, 0-9, _ and -)') }),
]);

const task = z.strictObject({
  prompt: z.string().trim().min(1).max(20_000),
  tools: z.array(z.string().min(1).max(128)).max(50).optional(),
});

const name = z.string().trim().min(1).max(200);

const createBody = z.strictObject({ name, trigger, task });

const changeBody = z
  .strictObject({ name: name.optional(), trigger: trigger.optional(), task: task.optional() })
  .refine((body) => body.name !== undefined || body.trigger !== undefined || body.task !== undefined, 'name, trigger or task is required');

const noBody = z.union([z.undefined(), z.strictObject({})]);

const automationId = z.string().regex(/^atm_[0-9A-Za-z_-]{10,64}$/, 'must be an automation id (atm_…)');

/** Automations: one record each, no trigger segment in the paths. Unmounted when `automations: false`. */
export function automationRoutes(automations: AutomationUseCases): WireRoutes {
  return {
    access: 'principal',
    register(router) {
      router.get('/automations', async (ctx) => {
        ctx.body = await automations.listAutomations.execute({ principal: principalOf(ctx), ...parse(pageQuery, ctx.query, 'query') });
      });
      router.post('/automations', async (ctx) => {
        const body = parse(createBody, bodyOf(ctx), 'automation');
        ctx.status = 201;
        ctx.body = await automations.createAutomation.execute({ principal: principalOf(ctx), ...body });
      });
      router.get('/automations/:id', async (ctx) => {
        ctx.body = await automations.getAutomation.execute({ principal: principalOf(ctx), automationId: parse(automationId, ctx.params.id, 'id') });
      });
      router.patch('/automations/:id', async (ctx) => {
        const body = parse(changeBody, bodyOf(ctx), 'change');
        ctx.body = await automations.changeAutomation.execute({ principal: principalOf(ctx), automationId: parse(automationId, ctx.params.id, 'id'), ...body });
      });
      router.delete('/automations/:id', async (ctx) => {
        await automations.deleteAutomation.execute({ principal: principalOf(ctx), automationId: parse(automationId, ctx.params.id, 'id') });
        ctx.status = 204;
      });
      router.post('/automations/:id/arm', async (ctx) => {
        parse(noBody, bodyOf(ctx), 'body');
        ctx.body = await automations.armAutomation.execute({ principal: principalOf(ctx), automationId: parse(automationId, ctx.params.id, 'id') });
      });
      router.post('/automations/:id/disarm', async (ctx) => {
        parse(noBody, bodyOf(ctx), 'body');
        ctx.body = await automations.disarmAutomation.execute({ principal: principalOf(ctx), automationId: parse(automationId, ctx.params.id, 'id') });
      });
    },
  };
}
