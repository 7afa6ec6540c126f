// Plain Node http: Porter answers its paths, the host the rest.
import { createServer } from 'node:http';
import { createPorter } from 'porter-runtime';
import { announce } from './shared/announce.js';
import { exampleOptions, signedInAs } from './shared/porter-options.js';

const porter = await createPorter(
  exampleOptions((req) => {
    const user = signedInAs(req.headers['x-user']); // read your session cookie here
    return user ? { subject: user.id, kind: 'user' } : null;
  }),
);

const server = createServer((req, res) =>
  porter.handle(req, res, () => {
    res.setHeader('content-type', 'text/plain');
    res.end('the host app');
  }),
);
announce('node-http', server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1'), porter);
