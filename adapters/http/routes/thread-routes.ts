import { z } from 'zod';
import type { ThreadUseCases } from '../../../ports/use-cases/threads.js';
import { parse } from '../validation.js';
import type { WireRoutes } from '../wire-routes.js';
import { bodyOf, principalOf } from '../wire-state.js';
import { sendTurn } from '../sse.js';
import { pageQuery } from './system-routes.js';
import { parseTurnBody, turnInputOf } from './turn-body.js';

const noBody = z.union([z.undefined(), z.strictObject({})]);

/** Threads and their turns. */
export function threadRoutes(threads: ThreadUseCases): WireRoutes {
  return {
    access: 'principal',
    register(router) {
      router.get('/threads', async (ctx) => {
        ctx.body = await threads.listThreads.execute({ principal: principalOf(ctx), ...parse(pageQuery, ctx.query, 'query') });
      });
      router.post('/threads', async (ctx) => {
        parse(noBody, bodyOf(ctx), 'body');
        ctx.status = 201;
        ctx.body = await threads.createThread.execute({ principal: principalOf(ctx) });
      });
      router.get('/threads/:id', async (ctx) => {
        ctx.body = await threads.getThread.execute({ principal: principalOf(ctx), threadId: ctx.params.id! });
      });
      router.delete('/threads/:id', async (ctx) => {
        await threads.deleteThread.execute({ principal: principalOf(ctx), threadId: ctx.params.id! });
        ctx.status = 204;
      });
      router.post('/threads/:id/turn', async (ctx) => {
        const input = turnInputOf(parseTurnBody(bodyOf(ctx)));
        const cookie = ctx.get('cookie');
        const authorization = ctx.get('authorization');
        const turn = await threads.runTurn.execute({
          principal: principalOf(ctx),
          threadId: ctx.params.id!,
          ...(input.message ? { message: input.message } : {}),
          answers: input.answers,
          credentials: { ...(cookie ? { cookie } : {}), ...(authorization ? { authorization } : {}) },
        });
        sendTurn(ctx, turn);
      });
      router.get('/threads/:id/stream', async (ctx) => {
        const turn = await threads.rejoinTurn.execute({ principal: principalOf(ctx), threadId: ctx.params.id! });
        if (!turn) {
          ctx.status = 204;
          return;
        }
        sendTurn(ctx, turn);
      });
      router.post('/threads/:id/stop', async (ctx) => {
        parse(noBody, bodyOf(ctx), 'body');
        ctx.body = await threads.stopTurn.execute({ principal: principalOf(ctx), threadId: ctx.params.id! });
      });
    },
  };
}
