import { createPorter, type Porter } from 'porter-runtime';
import { exampleOptions, signedInAs } from '../../shared/porter-options.js';

const cache = globalThis as typeof globalThis & { porter?: Promise<Porter> };

/**
 * One Porter per server process, made on the first request (not while `next build` collects the
 * routes), and kept across hot reloads in development.
 */
export function porter(): Promise<Porter> {
  cache.porter ??= createPorter(
    exampleOptions((req) => {
      const user = signedInAs(req.headers['x-user']); // read your session (e.g. Auth.js `auth()`) here
      return user ? { subject: user.id, kind: 'user' } : null;
    }),
  );
  return cache.porter;
}
