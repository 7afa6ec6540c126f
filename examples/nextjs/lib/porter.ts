import { createPorter, type Porter } from 'porter-runtime';
import { exampleOptions, signedInAs } from '../../shared/porter-options.js';

/** The example's Porter, for `createRouteHandlers`: it calls this once per server process. */
export function makePorter(): Promise<Porter> {
  return createPorter(
    exampleOptions((req) => {
      const user = signedInAs(req.headers['x-user']); // read your session (e.g. Auth.js `auth()`) here
      return user ? { subject: user.id, kind: 'user' } : null;
    }),
  );
}
