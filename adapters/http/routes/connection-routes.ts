import { z } from 'zod';
import { isToolkit } from '../../../domain/connections/connection.js';
import type { ConnectionsUseCases } from '../../../ports/use-cases/connections.js';
import { parse } from '../validation.js';
import type { WireRoutes } from '../wire-routes.js';
import { bodyOf, principalOf } from '../wire-state.js';
import { pageQuery } from './system-routes.js';

/** The host's page the broker returns the person to: http(s), no embedded credentials. */
const callbackUrl = z
  .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL on the host' })
  .max(2048)
  // zod runs this even when the URL check above failed, and `new URL` throws on what that check
  // refused (a port past 65535): an unparseable value is that check's issue, not a crash.
  .refine((value) => {
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, 'must not carry credentials');

const initiateBody = z.strictObject({
  toolkit: z.string().refine(isToolkit, 'must be a toolkit slug such as "github" (lowercase letters, digits, - and _)'),
  callbackUrl,
});

/** Connections: initiate, poll, list, delete. Owner-scoped; the broker owns the OAuth redirect. */
export function connectionRoutes(connections: ConnectionsUseCases): WireRoutes {
  return {
    access: 'principal',
    register(router) {
      router.get('/connections', async (ctx) => {
        ctx.body = await connections.list.execute({ principal: principalOf(ctx), ...parse(pageQuery, ctx.query, 'query') });
      });
      // The literal route is registered ahead of /connections/:id.
      router.post('/connections/initiate', async (ctx) => {
        const body = parse(initiateBody, bodyOf(ctx), 'body');
        ctx.status = 201;
        ctx.body = await connections.initiate.execute({ principal: principalOf(ctx), toolkit: body.toolkit, callbackUrl: body.callbackUrl });
      });
      router.get('/connections/:id', async (ctx) => {
        ctx.body = await connections.get.execute({ principal: principalOf(ctx), connectionId: ctx.params.id! });
      });
      router.delete('/connections/:id', async (ctx) => {
        await connections.remove.execute({ principal: principalOf(ctx), connectionId: ctx.params.id! });
        ctx.status = 204;
      });
    },
  };
}
