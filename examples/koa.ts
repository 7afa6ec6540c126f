// Koa: Porter as middleware, before any body parser.
import Koa from 'koa';
import { createPorter } from 'porter-runtime';
import { announce } from './shared/announce.js';
import { exampleOptions, signedInAs } from './shared/porter-options.js';

interface State {
  user?: { id: string } | null;
}

const porter = await createPorter(
  exampleOptions((req) => {
    const user = (req.host as Koa.ParameterizedContext<State>).state.user; // what the session middleware set
    return user ? { subject: user.id, kind: 'user' } : null;
  }),
);

const app = new Koa<State>();
app.use(async (ctx, next) => {
  ctx.state.user = signedInAs(ctx.get('x-user')); // your session middleware
  await next();
});
app.use(porter.koa);
app.use((ctx) => {
  ctx.body = 'the host app';
});
announce('koa', app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1'), porter);
