// Express: Porter's connect-style handler, before express.json() or any other body parser.
import express, { type Request } from 'express';
import { createPorter } from 'porter-runtime';
import { announce } from './shared/announce.js';
import { exampleOptions, signedInAs } from './shared/porter-options.js';

type SignedIn = Request & { user?: { id: string } | null };

const porter = await createPorter(
  exampleOptions((req) => {
    const user = (req.raw as SignedIn).user; // what the session middleware set on the request
    return user ? { subject: user.id, kind: 'user' } : null;
  }),
);

const app = express();
app.use((req: SignedIn, _res, next) => {
  req.user = signedInAs(req.get('x-user')); // your session middleware
  next();
});
app.use(porter.handle);
app.use(express.json());
app.get('/', (_req, res) => {
  res.send('the host app');
});
announce('express', app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1'), porter);
