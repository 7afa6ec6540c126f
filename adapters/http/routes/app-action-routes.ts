import { z } from 'zod';
import type { AppActionUseCases } from '../../../ports/use-cases/apps.js';
import { parse } from '../validation.js';
import type { WireRoutes } from '../wire-routes.js';
import { bodyOf, principalOf } from '../wire-state.js';
import { requestSignal } from './app-routes.js';

/** What a page may send with an action: its fields, as JSON, small. */
const MAX_INPUT_CHARS = 64 * 1024;
const actionName = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be an action name');
const actionBody = z.strictObject({
  input: z
    .record(z.string().min(1).max(128), z.json())
    .refine((input) => Object.keys(input).length <= 100, 'has more than 100 fields')
    .refine((input) => JSON.stringify(input).length <= MAX_INPUT_CHARS, `is larger than ${MAX_INPUT_CHARS} characters of JSON`)
    .default({}),
});

/**
 * `POST /apps/:id/actions/:action {input}`: an app's tool action, through the guard. `200
 * {status:"ran", output}` when it ran, `202 {status:"parked", approvalId, toolCallId, risk,
 * preview}` when it waits for the person (retry the same call after approving: it runs once);
 * blocked, invalid and failed calls answer in the error envelope.
 */
export function appActionRoutes(actions: AppActionUseCases): WireRoutes {
  return {
    access: 'principal',
    register(router) {
      router.post('/apps/:id/actions/:action', async (ctx) => {
        const action = parse(actionName, ctx.params.action, 'action name');
        const { input } = parse(actionBody, bodyOf(ctx) ?? {}, 'body');
        const cookie = ctx.get('cookie');
        const authorization = ctx.get('authorization');
        const answer = await actions.runAction.execute({
          principal: principalOf(ctx),
          appId: ctx.params.id!,
          action,
          input,
          credentials: { ...(cookie ? { cookie } : {}), ...(authorization ? { authorization } : {}) },
          signal: requestSignal(ctx),
        });
        ctx.status = answer.status === 'parked' ? 202 : 200;
        ctx.body = answer;
      });
    },
  };
}
