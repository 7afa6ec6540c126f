// Next.js App Router: every Porter path under /api/porter goes to porter.fetch. The Porter is made
// on the first request (never while `next build` collects the routes) and kept across hot reloads.
import { createRouteHandlers } from 'porter-runtime/next';
import { makePorter } from '../../../../lib/porter.js';

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = createRouteHandlers(makePorter);
