import { z } from 'zod';
import type { AppActionUseCases } from '../../../ports/use-cases/apps.js';
import { ActionAnswer, appParams } from '../shapes/app-shapes.js';
import { JsonValue } from '../shapes/common-shapes.js';
import { actionNameParam } from '../shapes/path-params.js';
import { json, jsonBody, route } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';
import { requestSignal } from './caller-routes.js';
import { defined } from '../../../domain/defined.js';

/** What a page may send with an action: its fields, as JSON, small. */
const MAX_INPUT_CHARS = 64 * 1024;
/** No body at all reads as `{}`. */
const actionBody = z
  .strictObject({
    input: z
      .record(z.string().min(1).max(128), JsonValue)
      .refine((input) => Object.keys(input).length <= 100, 'has more than 100 fields')
      .refine((input) => JSON.stringify(input).length <= MAX_INPUT_CHARS, `is larger than ${MAX_INPUT_CHARS} characters of JSON`)
      .default({}),
  })
  .prefault({});

/**
 * `POST /apps/:id/actions/:action {input}`: an app's tool action, through the guard. `200
 * {status:"ran", output}` when it ran, `202 {status:"parked", approvalId, toolCallId, risk,
 * preview}` when it waits for the person (retry the same call after approving: it runs once);
 * blocked, invalid and failed calls answer in the error envelope.
 */
export function appActionRoutes(actions: AppActionUseCases): WireRoutes {
  return principalFamily('Apps', [
    route({
      id: 'runAppAction',
      method: 'post',
      path: '/apps/:id/actions/:action',
      summary: "Run an app's tool action through the guard",
      description:
        "The page's fields go in `input` (at most 100, 64 KiB of JSON); the action's own fixed values win over them. A parked call runs once, when the same call is retried after approval.",
      params: { ...appParams, action: actionNameParam },
      body: jsonBody(actionBody),
      responses: {
        200: json('It ran: `{status: "ran", output}`.', ActionAnswer),
        202: json('It waits for the person: `{status: "parked", approvalId, toolCallId, risk, preview}`.', ActionAnswer),
      },
      errors: ['unauthorized', 'forbidden', 'conflict', 'rate-limited', 'not-implemented', 'unavailable'],
      handle: async (ctx, { params, body }) => {
        const cookie = ctx.get('cookie');
        const authorization = ctx.get('authorization');
        const answer = await actions.runAction.execute({
          principal: principalOf(ctx),
          appId: params.id,
          action: params.action,
          input: body.input,
          credentials: defined({ cookie: cookie || undefined, authorization: authorization || undefined }),
          signal: requestSignal(ctx),
        });
        ctx.status = answer.status === 'parked' ? 202 : 200;
        ctx.body = answer;
      },
    }),
  ]);
}
