// Hono on Node: Porter's Web-standard fetch handler for its paths.
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { createPorter } from 'porter-runtime';
import type { Server } from 'node:http';
import { announce } from './shared/announce.js';
import { exampleOptions, signedInAs } from './shared/porter-options.js';

type Env = { Variables: { user: { id: string } | null } };

const porter = await createPorter(
  exampleOptions((req) => {
    const user = (req.host as Context<Env>).get('user'); // what the auth middleware set on `c`
    return user ? { subject: user.id, kind: 'user' } : null;
  }),
);

const app = new Hono<Env>();
app.use('*', async (c, next) => {
  c.set('user', signedInAs(c.req.header('x-user'))); // your auth middleware
  await next();
});
app.all('/api/porter/*', (c) => porter.fetch(c.req.raw, { host: c, ip: getConnInfo(c).remote.address ?? '' }));
app.get('/', (c) => c.text('the host app'));
announce('hono', serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }) as Server, porter);
